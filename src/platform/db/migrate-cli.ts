import { ConfigError, loadConfig } from '../../config.js';
import { openDatabase } from './database.js';
import { migrateToLatest } from './migrate.js';

/** `npm run db:migrate`: applies pending migrations to the configured database and exits (the service also does at start). */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    const applied = await migrateToLatest(database.db);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(error instanceof ConfigError ? 2 : 1);
});
