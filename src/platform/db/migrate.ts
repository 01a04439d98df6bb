import { Migrator, type Kysely } from 'kysely';
import { migrations } from '../../../migrations/index.js';

/** This build's migrations: a database is ready for it once every one has been applied. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

/**
 * Applies pending migrations in one transaction, under PostgreSQL's migration lock (safe with several processes).
 * Unordered: a reserved slot (0004_kyc) may land after later migrations were applied (0005_geo, 0006_sanctions);
 * pending ones still run in name order. A late-landing migration must depend only on tables that already exist.
 */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
