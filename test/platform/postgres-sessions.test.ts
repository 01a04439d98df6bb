import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/platform/db/database.js';
import {
  columnArrays,
  precompiled,
  unnestArrays,
  type ColumnArrays,
  type Param,
} from '../../src/platform/db/precompiled.js';
import { createTestDatabase } from '../helpers/test-database.js';

const url = process.env.DATABASE_URL;

describe.skipIf(!url)('sessions on a PostgreSQL server', () => {
  it('run without JIT, on every pooled connection', async () => {
    const server = await createTestDatabase('cs_sessions');
    const { db, close } = await openDatabase({ url: server.url, poolSize: 3 });
    try {
      // Three at once, so that three connections of the pool answer.
      const settings = await Promise.all(
        [1, 2, 3].map(() =>
          db.transaction().execute(async (tx) => {
            const { rows } = await sql<{
              jit: string;
            }>`select current_setting('jit') as jit, pg_sleep(0.05)`.execute(tx);
            return rows[0]!.jit;
          }),
        ),
      );
      expect(settings).toEqual(['off', 'off', 'off']);
    } finally {
      await close();
      await server.drop();
    }
  });

  it('keep the generic plan of a statement over unnested arrays, whatever the number of rows', async () => {
    const server = await createTestDatabase('cs_sessions');
    const { db, close } = await openDatabase({ url: server.url, poolSize: 1 });
    const columns = { word: 'text', n: 'bigint' } as const;
    const statement = precompiled(
      (_db, param: Param<ColumnArrays<typeof columns>>) =>
        // Per row, a correlated read of a table: each row has a cost, as the AML rule reads have.
        sql<{ word: string; n: number; seen: number }>`select word, n,
          (select count(*) from seen where seen.word = t.word)::int as seen
          from ${unnestArrays(columns, param)} as t (word, n)`,
    );
    try {
      await sql`create table seen (word text)`.execute(db);
      await sql`insert into seen select 'w' || (g % 100) from generate_series(1, 10000) g`.execute(db);
      await sql`create index on seen (word)`.execute(db);
      await sql`analyze seen`.execute(db);
      for (let size = 1; size <= 8; size++) {
        const rows = Array.from({ length: size }, (_, i) => ({ word: `w${i}`, n: i }));
        const read = await statement.execute(db, columnArrays(columns, rows));
        expect(read).toEqual(rows.map((row) => ({ ...row, seen: 100 })));
      }
      const { rows } = await sql<{ generic_plans: number; custom_plans: number }>`
        select generic_plans, custom_plans from pg_prepared_statements where statement like '%from unnest%'`.execute(
        db,
      );
      // PostgreSQL tries five custom plans first; from then on the one generic plan serves every call.
      expect(rows).toEqual([{ generic_plans: 3, custom_plans: 5 }]);
    } finally {
      await close();
      await server.drop();
    }
  });
});
