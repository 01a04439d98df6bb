import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/platform/db/database.js';

describe('embedded PGlite data directory', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-embedded-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is created on first open and keeps what was committed across a reopen', async () => {
    const first = await openDatabase({ dataDir: dir });
    expect(fs.existsSync(path.join(dir, 'pglite', 'PG_VERSION'))).toBe(true);
    await sql`create table kept (value text)`.execute(first.db);
    await sql`insert into kept values ('committed')`.execute(first.db);
    await first.close();

    const second = await openDatabase({ dataDir: dir });
    try {
      const { rows } = await sql<{ value: string }>`select value from kept`.execute(second.db);
      expect(rows).toEqual([{ value: 'committed' }]);
    } finally {
      await second.close();
    }
  });
});

describe('embedded PGlite statements', () => {
  it('prepares a parameterised statement once and reuses it, and recovers from a failing one', async () => {
    const { db, close } = await openDatabase({});
    try {
      const plusOne = (n: number) => sql<{ x: number }>`select ${n}::int + 1 as x`.execute(db);
      expect((await plusOne(1)).rows).toEqual([{ x: 2 }]);
      expect((await plusOne(41)).rows).toEqual([{ x: 42 }]);
      const prepared = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements
        where statement = 'select $1::int + 1 as x'`.execute(db);
      expect(prepared.rows).toEqual([{ n: 1 }]);

      await expect(sql`select 1 / ${0}::int as x`.execute(db)).rejects.toMatchObject({ code: '22012' });
      const values = await sql<{ words: string[]; at: Date; doc: unknown }>`
        select ${['a,b', 'quote "', null]}::text[] as words, ${new Date(0)}::timestamptz as at,
          ${JSON.stringify({ k: [1, null] })}::jsonb as doc`.execute(db);
      expect(values.rows).toEqual([
        { words: ['a,b', 'quote "', null], at: new Date(0), doc: { k: [1, null] } },
      ]);
    } finally {
      await close();
    }
  });
});
