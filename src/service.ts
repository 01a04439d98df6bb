import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import { ensureBackofficeToken } from './backoffice/backoffice-auth.js';
import type { Config } from './config.js';
import { MANIFESTS } from './manifests.js';
import type { Close } from './platform/area.js';
import { ApiKeyCache } from './platform/api-key-cache.js';
import { measureGroupCommits, type GroupCommits } from './platform/group-commit.js';
import { createLogger } from './platform/logger.js';
import { systemClock, TestClock, type Clock } from './platform/clock.js';
import type { Platform } from './platform/context.js';
import { openDatabase, type Database } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrate.js';
import { Metrics } from './platform/metrics.js';
import { registerPoolMetrics } from './platform/db/pool-metrics.js';
import { ProcessLoad } from './platform/process-load.js';
import { Scheduler } from './platform/scheduler.js';
import { openSecrets, registerKeyRotation } from './platform/key-rotation.js';
import { embeddedSecretsKeys, KeyRing } from './platform/secrets.js';
import type { VendorOverrides, Vendors } from './platform/vendors.js';
import { WebhookDispatcher } from './platform/webhooks/dispatcher.js';
import { WORKER_POOL_SIZE, Workers } from './platform/workers.js';

export interface Service {
  app: FastifyInstance;
  platform: Platform;
  database: Database;
  workers: Workers;
  /** Set only on the first start of a database without a configured token: print it once. */
  generatedBackofficeToken: string | undefined;
  close(): Promise<void>;
}

/** The configured master keys, or on the embedded default without COMPLIANCE_SECRETS_KEY those kept beside the data. */
function secretsKeyRing(config: Config): KeyRing {
  if (config.secretsKey) return new KeyRing(config.secretsKey, config.secretsOldKeys);
  const embedded = embeddedSecretsKeys(config.dataDir);
  return new KeyRing(embedded.current, [...embedded.previous, ...config.secretsOldKeys]);
}

/**
 * Opens the database, migrates, and wires the platform and the app. Workers are created but not started.
 * `vendors` replaces configured vendor implementations (tests); each service builds and closes its own.
 */
export async function createService(
  config: Config,
  logger: Logger = createLogger(config),
  vendors: VendorOverrides = {},
): Promise<Service> {
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    ...(config.processRole === 'worker' && { poolSize: WORKER_POOL_SIZE }),
    onIdleError: (error) =>
      logger.warn({ err: error }, 'an idle database connection was closed by the server'),
  });
  try {
    await migrateToLatest(database.db);
    const testClock = config.testClock ? await TestClock.load(database.db, config.testClockStart) : undefined;
    const clock: Clock = testClock ?? systemClock;
    // Before anything reads one: refuses to start when a stored value's key is not configured.
    const { secrets, stale } = await openSecrets(database.db, secretsKeyRing(config), clock.now());
    logger.info(
      { key_id: secrets.ring.current.id, previous_key_ids: secrets.ring.previous.map((k) => k.id) },
      'secrets keys',
    );
    const { tokenHash, generatedToken } = await ensureBackofficeToken(database.db, config.backofficeToken);
    const metrics = new Metrics();
    const redis = config.redisUrl
      ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true })
      : undefined;
    const platform: Platform = {
      config,
      db: database.db,
      clock,
      testClock,
      scheduler: new Scheduler(database.db, clock, logger),
      dispatcher: new WebhookDispatcher(
        database.db,
        clock,
        { allowPrivate: config.allowPrivateWebhooks },
        logger,
        secrets,
        metrics,
      ),
      log: logger,
      redis,
      apiKeys: new ApiKeyCache(),
      secrets,
      pollers: [],
      load: new ProcessLoad(database.db, clock, logger),
      metrics,
      draining: false,
      // Production vendors open their data on first use, or at start when a cut-over live tenant needs them.
      vendors: Object.fromEntries(
        MANIFESTS.flatMap(({ name, vendors: build }) =>
          build ? [[name, build({ config, clock, log: logger }, vendors[name as keyof Vendors] ?? {})]] : [],
        ),
      ) as unknown as Vendors,
      groupCommits: Object.assign(
        {},
        ...MANIFESTS.map((part) => part.groupCommits?.(database.db, config)),
      ) as GroupCommits,
    };
    registerPoolMetrics(metrics, database);
    measureGroupCommits(platform.groupCommits, metrics);
    await registerKeyRotation(platform, stale);
    const closers: Close[] = [];
    for (const part of MANIFESTS) {
      const close = await part.start?.(platform);
      if (close) closers.unshift(close);
    }
    const app = await buildApp({ platform, logger, backofficeTokenHash: tokenHash, redis });
    await app.ready();
    const workers = new Workers(platform);
    return {
      app,
      platform,
      database,
      workers,
      generatedBackofficeToken: generatedToken,
      async close() {
        platform.draining = true;
        // Readiness answers 503 while requests are still served, so a load balancer stops sending before the port closes.
        if (app.server.listening && config.shutdownDrainSeconds > 0) {
          await sleep(config.shutdownDrainSeconds * 1000);
        }
        await app.close();
        await workers.stop();
        // Last started, first closed: what an area buffered is written before the database closes.
        for (const close of closers) await close();
        platform.load.stop();
        await platform.dispatcher.close();
        redis?.disconnect();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
