import type { Platform } from '../../../platform/context.js';
import { VERSION } from '../../../version.js';
import type { Health } from '../health.schemas.js';
import { databaseAnswers } from '../health.store.js';

const DATABASE_TIMEOUT_MS = 2000;

/** The service's health: degraded when the database does not answer within DATABASE_TIMEOUT_MS. */
export async function checkHealth(platform: Platform): Promise<Health> {
  const databaseOk = await Promise.race([
    databaseAnswers(platform.db),
    new Promise<boolean>((resolve) => setTimeout(resolve, DATABASE_TIMEOUT_MS, false).unref()),
  ]);
  return {
    status: databaseOk ? 'ok' : 'degraded',
    version: VERSION,
    database: databaseOk ? 'ok' : 'unavailable',
  };
}
