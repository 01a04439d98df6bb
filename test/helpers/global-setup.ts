import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { maintainPartitions } from '../../src/platform/partitions.js';
import { TEST_CLOCK_START } from './test-service.js';

/**
 * PGlite's initdb takes seconds; a migrated data directory made once per run and copied for each test service
 * takes a fraction of that. The copy is a real on-disk database like any other.
 */
export default async function setup(): Promise<() => void> {
  if (process.env.DATABASE_URL) return () => {};
  // The service and process projects both list this setup; in one run the second reuses the first's template.
  if (process.env.COMPLIANCE_TEST_PGLITE_TEMPLATE) return () => {};
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'compliance-template-'));
  const database = await openDatabase({ dataDir: root });
  await migrateToLatest(database.db);
  // The partitions a test service's clock needs at its start, made once rather than by every service.
  await database.db.transaction().execute((tx) => maintainPartitions(tx, TEST_CLOCK_START));
  await database.close();
  process.env.COMPLIANCE_TEST_PGLITE_TEMPLATE = path.join(root, 'pglite');
  return () => fs.rmSync(root, { recursive: true, force: true });
}
