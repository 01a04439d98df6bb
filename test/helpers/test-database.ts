import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A fresh database for one test service: on the PostgreSQL server named by DATABASE_URL when it is set (CI's
 * PostgreSQL leg), else undefined, which means embedded PGlite in a temporary directory.
 */
export async function createTestDatabase(
  prefix = 'cs_test',
): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return { url: undefined, drop: async () => {} };
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** Runs `fn` on a fresh database (see createTestDatabase) and drops the database afterwards, whatever `fn` did. */
export async function withTestDatabase<T>(fn: (url: string | undefined) => Promise<T>): Promise<T> {
  const database = await createTestDatabase();
  try {
    return await fn(database.url);
  } finally {
    await database.drop();
  }
}
