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
