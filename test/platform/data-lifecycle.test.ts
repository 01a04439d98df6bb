import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DATA_LIFECYCLE } from '../../src/platform/data-lifecycle.js';
import { pseudonymiseRows, pseudonymOf } from '../../src/platform/data-lifecycle.store.js';
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

  it("runs every table's pseudonymisation against its real columns", async () => {
    const key = suite.current.platform.secrets.pseudonymKey();
    for (const [table, t] of Object.entries(DATA_LIFECYCLE)) {
      for (const columns of [t.pseudonymise, t.inForce?.pseudonymise]) {
        if (columns)
          await expect(pseudonymiseRows(suite.current.db, table, columns, sql`false`, key)).resolves.toBe(0);
      }
    }
  });

  it("writes the pseudonym the service computes from a player's id, once", async () => {
    const { db, platform } = suite.current;
    const key = platform.secrets.pseudonymKey();
    await db.schema
      .createTable('pseudonym_probe')
      .temporary()
      .addColumn('tenant_id', 'text')
      .addColumn('user_id', 'text')
      .execute();
    await sql`insert into pseudonym_probe values ('t1', 'player-ü'), (null, 'x')`.execute(db);
    const treat = () => pseudonymiseRows(db, 'pseudonym_probe', { user_id: 'pseudonym' }, sql`true`, key);
    await expect(treat()).resolves.toBe(2);
    await expect(treat()).resolves.toBe(0);
    const rows = await sql<{
      user_id: string;
    }>`select user_id from pseudonym_probe order by tenant_id nulls last`.execute(db);
    expect(rows.rows.map((r) => r.user_id)).toEqual([
      pseudonymOf(key, 't1', 'player-ü'),
      pseudonymOf(key, null, 'x'),
    ]);
    await db.schema.dropTable('pseudonym_probe').execute();
  });
});
