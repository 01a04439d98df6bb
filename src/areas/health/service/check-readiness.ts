import type { Redis } from 'ioredis';
import type { Platform } from '../../../platform/context.js';
import { MIGRATION_NAMES } from '../../../platform/db/migrate.js';
import { productionVendorsReady } from '../../../platform/vendors.js';
import type { Readiness } from '../health.schemas.js';
import { appliedMigrationNames, databaseAnswers } from '../health.store.js';

/** Each check's bound: a load balancer's probe gets its answer within it, whatever hangs. */
const CHECK_TIMEOUT_MS = 2000;

type Check = Readiness['checks']['database'];

/** 'ok' when the probe says true within CHECK_TIMEOUT_MS; 'failing' when it says false, throws or takes longer. */
async function check(probe: () => Promise<boolean>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, CHECK_TIMEOUT_MS, false)));
  try {
    return (await Promise.race([probe(), late])) ? 'ok' : 'failing';
  } catch {
    return 'failing';
  } finally {
    clearTimeout(timer);
  }
}

async function migrated(platform: Platform): Promise<boolean> {
  const applied = await appliedMigrationNames(platform.db);
  return MIGRATION_NAMES.every((name) => applied.has(name));
}

/** A client still reconnecting is failing at once: its queued PING would only wait out the timeout. */
async function redisAnswers(redis: Redis): Promise<boolean> {
  return redis.status === 'ready' && (await redis.ping()) === 'PONG';
}

/**
 * Whether this process can serve traffic: the database answers and holds this build's migrations, Redis answers
 * when configured, the production vendors that cut-over live tenants need are loaded, and it is not stopping.
 * The checks run together, each bounded; an answer names no host, secret or error.
 */
export async function checkReadiness(platform: Platform): Promise<Readiness> {
  const { redis } = platform;
  const [database, migrations, redisCheck, vendors] = await Promise.all([
    check(() => databaseAnswers(platform.db)),
    check(() => migrated(platform)),
    redis ? check(() => redisAnswers(redis)) : undefined,
    check(() => productionVendorsReady(platform.db, platform.vendors)),
  ]);
  const checks: Readiness['checks'] = {
    database,
    migrations,
    ...(redisCheck && { redis: redisCheck }),
    vendors,
    shutdown: platform.draining ? 'failing' : 'ok',
  };
  const ready = Object.values(checks).every((value) => value === 'ok');
  return { status: ready ? 'ready' : 'not_ready', checks };
}
