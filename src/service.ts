import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import { registerAmlWork } from './areas/aml/aml.jobs.js';
import { amlEventsGroupCommit, amlScreenHistoryGroupCommit } from './areas/aml/aml.service.js';
import { registerEmbedJobs } from './areas/embeds/embeds.jobs.js';
import { registerExclusionJobs } from './areas/exclusions/exclusions.jobs.js';
import { exclusionsCheckGroupCommit } from './areas/exclusions/exclusions.service.js';
import { registerRegulatorExportJob } from './areas/exclusions/regulator-exports.jobs.js';
import { registerReportJobs } from './areas/reports/reports.jobs.js';
import { flushSightings } from './areas/exclusions/exclusions.sightings.js';
import { registerGeoJobs } from './areas/geo/geo.jobs.js';
import { geoVendors, installProductionGeo } from './areas/geo/geo.resolver.production.js';
import { geoAuditLogGroupCommit } from './areas/geo/geo.service.js';
import { registerKycJobs } from './areas/kyc/kyc.jobs.js';
import { kycVendors } from './areas/kyc/kyc.vendor.js';
import { limitsCheckGroupCommit, registerLimitJobs } from './areas/limits/limits.service.js';
import { installProductionSanctions, sanctionsVendors } from './areas/sanctions/sanctions.production.js';
import { registerSanctionsJobs } from './areas/sanctions/sanctions.jobs.js';
import { ensureBackofficeToken } from './backoffice/backoffice-auth.js';
import type { Config } from './config.js';
import { ApiKeyCache } from './platform/api-key-cache.js';
import { createLogger } from './platform/logger.js';
import { systemClock, TestClock, type Clock } from './platform/clock.js';
import type { Platform } from './platform/context.js';
import { openDatabase, type Database } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrate.js';
import { registerMail } from './platform/mail/mail.js';
import { Metrics } from './platform/metrics.js';
import { ProcessLoad } from './platform/process-load.js';
import { Scheduler } from './platform/scheduler.js';
import { registerSecurityLogRetention } from './platform/security-log.js';
import { openSecrets, registerKeyRotation } from './platform/key-rotation.js';
import { embeddedSecretsKeys, KeyRing } from './platform/secrets.js';
import type { VendorOverrides } from './platform/vendors.js';
import { WebhookDispatcher } from './platform/webhooks/dispatcher.js';
import { registerStaffJobs } from './staff/staff.jobs.js';
import { registerSigningSecretJobs } from './platform/webhooks/signing-secrets.js';
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
      ),
      log: logger,
      redis,
      apiKeys: new ApiKeyCache(),
      secrets,
      pollers: [],
      load: new ProcessLoad(database.db, clock, logger),
      metrics: new Metrics(),
      // Production vendors open their data on first use, or at start when a cut-over live tenant needs them.
      vendors: {
        sanctions: sanctionsVendors(config, clock, logger, vendors.sanctions),
        geo: geoVendors(config, logger, vendors.geo),
        kyc: kycVendors(vendors.kyc),
      },
      groupCommits: {
        exclusionsCheck: exclusionsCheckGroupCommit(database.db, config),
        limitsCheck: limitsCheckGroupCommit(database.db, config),
        geoAuditLog: geoAuditLogGroupCommit(database.db, config),
        amlEvents: amlEventsGroupCommit(database.db, config),
        amlScreenHistory: amlScreenHistoryGroupCommit(database.db, config),
      },
    };
    const closeGeo = await installProductionGeo(platform);
    registerSigningSecretJobs(platform);
    await registerKeyRotation(platform, stale);
    await registerSecurityLogRetention(platform);
    await registerStaffJobs(platform);
    await registerExclusionJobs(platform);
    await registerLimitJobs(platform);
    registerKycJobs(platform);
    await registerSanctionsJobs(platform);
    const closeSanctions = await installProductionSanctions(platform);
    await registerGeoJobs(platform);
    registerAmlWork(platform);
    await registerEmbedJobs(platform);
    const closeMail = await registerMail(platform);
    await registerRegulatorExportJob(platform);
    await registerReportJobs(platform);
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
        await app.close();
        await flushSightings(platform).catch(() => {});
        await workers.stop();
        platform.load.stop();
        await platform.dispatcher.close();
        redis?.disconnect();
        closeSanctions();
        closeGeo();
        closeMail();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
