import { Migrator } from 'kysely';
import { migrations } from '../../migrations/index.js';
import { openDatabase, type Database } from '../../src/platform/db/database.js';
import type { Own } from './suite.js';
import { createTestDatabase } from './test-database.js';

/**
 * A fresh database with no migration applied, and migrateTo(name) to take it up to a named migration: for a test of
 * one migration on rows written before it. `own` takes the database to close and drop.
 */
export async function openUnmigratedDatabase(
  own: Own,
): Promise<{ database: Database; migrateTo(name: string): Promise<void> }> {
  const created = await createTestDatabase();
  own({ close: () => created.drop() });
  const database = own(await openDatabase({ url: created.url }));
  const migrateTo = async (name: string) => {
    const migrator = new Migrator({
      db: database.db,
      provider: { getMigrations: async () => migrations },
      allowUnorderedMigrations: true,
    });
    const { error } = await migrator.migrateTo(name);
    if (error) throw error;
  };
  return { database, migrateTo };
}
