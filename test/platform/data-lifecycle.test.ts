import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DATA_LIFECYCLE } from '../../src/platform/data-lifecycle.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

/** The lifecycle table against the schema a migrated database really has (PGlite, or PostgreSQL with DATABASE_URL). */
describe('data lifecycle', () => {
  const suite = useSuite(() => TestService.start());

  it('gives every table of a migrated database a lifecycle, and names no table that does not exist', async () => {
    const tables = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely_%'
      order by table_name`.execute(suite.current.db);
    const existing = tables.rows.map((row) => row.name);
    expect(existing.filter((name) => !(name in DATA_LIFECYCLE))).toEqual([]);
    expect(Object.keys(DATA_LIFECYCLE).filter((name) => !existing.includes(name))).toEqual([]);
  });
});
