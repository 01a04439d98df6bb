import os from 'node:os';
import path from 'node:path';
import {
  geoipFetchOf,
  geoipProbeOf,
  readSources,
  type GeoipFetch,
  type SanctionsSource,
} from './config/downloads.js';
import { envReader, type Env } from './config/env-reader.js';
import { chooseLogFormat, type LogFormat } from './config/log-format.js';
import { trustedProxies } from './config/trust-proxy.js';
import { parseSecretsKey } from './platform/secrets.js';
import { PACKAGE_ROOT } from './version.js';

export { SANCTIONS_LISTS, type GeoipFetch, type SanctionsSource } from './config/downloads.js';

/** The service's whole configuration, read from the environment once at start. Nothing else reads process.env. */
export interface Config {
  port: number;
  host: string;
  /**
   * The port of GET /metrics (METRICS_PORT, default 9464; 0 picks a free port): served by the supervisor, or by a
   * process on its own. undefined: no metrics port (METRICS_PORT=off).
   */
  metricsPort: number | undefined;
  /** postgres://… for a PostgreSQL server; undefined runs embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  backofficeToken: string | undefined;
  testClock: boolean;
  /** Where the test clock starts on a database that has none yet (default: the wall clock at that start). */
  testClockStart: Date | undefined;
  allowPrivateWebhooks: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** JSON lines (the default), or human-readable lines (pino-pretty) when standard output is a terminal. */
  logFormat: LogFormat;
  /**
   * Seconds between a stop signal and the listener closing: readiness answers 503 meanwhile while requests are
   * still served, so a load balancer stops sending before the port closes (SHUTDOWN_DRAIN_SECONDS).
   */
  shutdownDrainSeconds: number;
  /** Run the scheduler and webhook dispatcher loops in this process. */
  workers: boolean;
  /** API processes the supervisor forks, sharing the port, beside one process for the background work. */
  apiProcesses: number;
  /**
   * What this process does: `supervisor` forks API and worker processes (the default on PostgreSQL); `all` serves
   * the API and runs the workers in one process (the default, and the only choice, on embedded PGlite); `api` and
   * `worker` are the supervisor's children (or processes an operator runs by hand); `setup` migrates the database
   * and, on a first start, prints its secrets, then exits: the supervisor's first child.
   */
  processRole: 'supervisor' | 'all' | 'api' | 'worker' | 'setup';
  /** MaxMind-format City files for the production IP resolver; undefined uses the DB-IP Lite package. */
  geoipDbPath: string[] | undefined;
  /** Directory searched recursively for sanctions-list publications; undefined: no production matcher (503). */
  sanctionsDataDir: string | undefined;
  /** Score (0–1) from which a production screening is a hit. */
  sanctionsHitThreshold: number;
  /** A list publication older than this many days is flagged as stale in the back office and the log. */
  sanctionsMaxAgeDays: number;
  /** Download the lists into sanctionsDataDir on a schedule (SANCTIONS_FETCH=1); off unless configured. */
  sanctionsFetch: boolean;
  sanctionsSources: SanctionsSource[];
  sanctionsFetchIntervalHours: number;
  /** A download whose entity count is more than this far below the version in force is refused. */
  sanctionsFetchMaxDropPercent: number;
  /** Download the IP geolocation database into the one GEOIP_DB_PATH file; off unless configured. */
  geoipFetch: GeoipFetch | undefined;
  geoipFetchIntervalHours: number;
  /** An address a new database must place, and the country it must place it in, before it is used. */
  geoipProbe: { ip: string; country: string };
  /**
   * COMPLIANCE_SECRETS_KEY: the current master key, which encrypts every new value at rest (signing secrets,
   * authenticator secrets, the stored hash keys). Required with DATABASE_URL; on the embedded default, undefined
   * means the keys kept beside the data (DATA_DIR/secrets.key, generated on the first start).
   */
  secretsKey: Buffer | undefined;
  /**
   * COMPLIANCE_SECRETS_OLD_KEYS: previous master keys, comma-separated, kept after a rotation until the re-encryption
   * job has moved every stored value to the current key; they open old values and never seal a new one.
   */
  secretsOldKeys: Buffer[];
  /** Stored values the re-encryption job rewrites per transaction (SECRETS_REENCRYPT_BATCH_SIZE). */
  secretsReencryptBatchSize: number;
  /**
   * Failed authentications (tenant API key or back-office token) allowed per client address per minute; past it the
   * address is answered 429 and nothing more is written for it until the minute is over.
   */
  authFailuresPerMinute: number;
  /**
   * Which proxies' X-Forwarded-For is believed for the client address (per-address throttles, the security log): a
   * number of hops, or the proxies' addresses and CIDR ranges. false: the connection's own address.
   */
  trustProxy: false | number | string[];
  /** Days the security log (authentication failures not tied to a tenant) is kept before the daily purge. */
  securityLogRetentionDays: number;
  /** Hours before a review's due time at which its "due soon" alert is raised. */
  reviewWarningHours: number;
  /** The sign-in email of the first admin, created (with a one-time setup link) on a first start. */
  firstAdminEmail: string;
  /** Users re-screened per transaction (and per scheduler job run) by the quarterly sanctions re-screen. */
  sanctionsRescreenBatchSize: number;
  /** Players screened per transaction against a list version's changes. */
  sanctionsListScreenBatchSize: number;
  /** A download must finish within this time, and be at most downloadMaxBytes. */
  downloadTimeoutMs: number;
  downloadMaxBytes: number;
  /**
   * The service's address as browsers reach it (PUBLIC_URL, e.g. https://compliance.example.com): every link the
   * service hands out (embed sessions, console setup links) starts with it, never with a request's Host. Required in
   * production, that is with DATABASE_URL; on the embedded sandbox it defaults to http://HOST:PORT (loopback for an
   * unspecified HOST).
   */
  publicUrl: string;
  /** A console session ends this many hours after sign-in however busy it is (STAFF_SESSION_MAX_HOURS). */
  staffSessionMaxHours: number;
  /** smtp:// or smtps:// with credentials; unset keeps mail in the outbox (docs/embeds.md). */
  smtpUrl: string | undefined;
  /** The From of the service's mail. */
  smtpFrom: string;
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** The embedded sandbox's own address: HOST and PORT, with an unspecified HOST (0.0.0.0, ::) read as loopback. */
function sandboxUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

/** A drain longer than a minute would hold a stopping process past any orchestrator's usual grace period. */
const MAX_SHUTDOWN_DRAIN_SECONDS = 60;

/** Prometheus's usual port for an exporter's metrics. */
export const DEFAULT_METRICS_PORT = 9464;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Parses an environment. Every bad value is reported, not just the first. `terminal`: whether standard output is a
 * terminal (the log format's default).
 */
export function loadConfig(env: Env = process.env, terminal = Boolean(process.stdout.isTTY)): Config {
  const problems: string[] = [];
  const { flag, positive, wholePositive } = envReader(env, problems);

  const testClockStartRaw = env.COMPLIANCE_TEST_CLOCK_START || undefined;
  const testClockStart = testClockStartRaw === undefined ? undefined : new Date(testClockStartRaw);
  if (testClockStart && Number.isNaN(testClockStart.getTime())) {
    problems.push(`COMPLIANCE_TEST_CLOCK_START must be an ISO 8601 instant (got "${testClockStartRaw}")`);
  }

  const portRaw = env.PORT || '8080';
  const port = Number(portRaw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.push(`PORT must be an integer from 0 to 65535 (got "${portRaw}")`);
  }

  const metricsPortRaw = env.METRICS_PORT || String(DEFAULT_METRICS_PORT);
  const metricsPort = metricsPortRaw === 'off' ? undefined : Number(metricsPortRaw);
  if (
    metricsPort !== undefined &&
    (!Number.isInteger(metricsPort) || metricsPort < 0 || metricsPort > 65535)
  ) {
    problems.push(`METRICS_PORT must be an integer from 0 to 65535, or off (got "${metricsPortRaw}")`);
  }

  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }

  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) {
    problems.push('REDIS_URL must be a redis:// or rediss:// URL');
  }

  const backofficeToken = env.COMPLIANCE_BACKOFFICE_TOKEN || undefined;
  if (backofficeToken !== undefined && backofficeToken.length < 24) {
    problems.push('COMPLIANCE_BACKOFFICE_TOKEN must be at least 24 characters');
  }

  const geoipDbPath = env.GEOIP_DB_PATH
    ? env.GEOIP_DB_PATH.split(',')
        .map((file) => file.trim())
        .filter(Boolean)
        .map((file) => path.resolve(file))
    : undefined;
  if (geoipDbPath?.some((file) => !file.endsWith('.mmdb'))) {
    problems.push('GEOIP_DB_PATH must name .mmdb files, separated by commas');
  }

  const apiProcessesRaw = env.COMPLIANCE_API_PROCESSES;
  // One core is left to the worker process (and, on a small machine, to a local PostgreSQL).
  const apiProcesses = apiProcessesRaw
    ? Number(apiProcessesRaw)
    : Math.max(1, Math.min(os.availableParallelism() - 1, 8));
  if (!Number.isInteger(apiProcesses) || apiProcesses < 1 || apiProcesses > 64) {
    problems.push(`COMPLIANCE_API_PROCESSES must be a whole number from 1 to 64 (got "${apiProcessesRaw}")`);
  }
  const processRole = (env.COMPLIANCE_PROCESS_ROLE ||
    (databaseUrl ? 'supervisor' : 'all')) as Config['processRole'];
  if (!['supervisor', 'all', 'api', 'worker', 'setup'].includes(processRole)) {
    problems.push(
      `COMPLIANCE_PROCESS_ROLE must be supervisor, all, api, worker or setup (got "${processRole}")`,
    );
  } else if (processRole !== 'all' && !databaseUrl) {
    problems.push(
      `COMPLIANCE_PROCESS_ROLE=${processRole} needs DATABASE_URL: embedded PGlite is owned by one process`,
    );
  }

  const sanctionsHitThreshold = Number(env.SANCTIONS_HIT_THRESHOLD || '0.85');
  if (!(sanctionsHitThreshold > 0 && sanctionsHitThreshold <= 1)) {
    problems.push(
      `SANCTIONS_HIT_THRESHOLD must be a number above 0 and at most 1 (got "${env.SANCTIONS_HIT_THRESHOLD}")`,
    );
  }
  const sanctionsMaxAgeDays = Number(env.SANCTIONS_MAX_AGE_DAYS || '7');
  if (!Number.isInteger(sanctionsMaxAgeDays) || sanctionsMaxAgeDays < 1) {
    problems.push(
      `SANCTIONS_MAX_AGE_DAYS must be a whole number of days, at least 1 (got "${env.SANCTIONS_MAX_AGE_DAYS}")`,
    );
  }

  const sourcesFile = path.resolve(
    env.COMPLIANCE_SOURCES_FILE || path.join(PACKAGE_ROOT, 'config', 'download-sources.json'),
  );
  const sources = readSources(sourcesFile, problems);
  const sanctionsFetch = flag('SANCTIONS_FETCH', false);
  if (sanctionsFetch && !env.SANCTIONS_DATA_DIR) {
    problems.push('SANCTIONS_FETCH=1 needs SANCTIONS_DATA_DIR: the directory the lists are downloaded into');
  }
  const sanctionsFetchMaxDropPercent = positive('SANCTIONS_FETCH_MAX_DROP_PERCENT', 10, 'percent');
  if (sanctionsFetchMaxDropPercent >= 100) {
    problems.push('SANCTIONS_FETCH_MAX_DROP_PERCENT must be below 100');
  }

  const geoipFetch = geoipFetchOf(env, sources, geoipDbPath, problems);
  const geoipProbe = geoipProbeOf(env, problems);

  const secretsKeyRaw = env.COMPLIANCE_SECRETS_KEY || undefined;
  const secretsKey = secretsKeyRaw === undefined ? undefined : parseSecretsKey(secretsKeyRaw);
  if (secretsKeyRaw !== undefined && !secretsKey) {
    problems.push('COMPLIANCE_SECRETS_KEY must be 32 bytes, as 64 hex characters or base64');
  } else if (!secretsKey && databaseUrl) {
    problems.push(
      'COMPLIANCE_SECRETS_KEY is required with DATABASE_URL (32 random bytes, e.g. `openssl rand -base64 32`): it encrypts the signing secrets the database holds',
    );
  }

  const secretsOldKeys: Buffer[] = [];
  for (const [i, raw] of (env.COMPLIANCE_SECRETS_OLD_KEYS || '').split(',').entries()) {
    if (!raw.trim()) continue;
    const key = parseSecretsKey(raw.trim());
    // Never echo a key: its position says which one.
    if (key) secretsOldKeys.push(key);
    else
      problems.push(
        `COMPLIANCE_SECRETS_OLD_KEYS: key number ${i + 1} must be 32 bytes, as 64 hex characters or base64`,
      );
  }

  const host = env.HOST || '127.0.0.1';
  const publicUrl = env.PUBLIC_URL
    ? env.PUBLIC_URL.replace(/\/+$/, '')
    : sandboxUrl(host, Number.isInteger(port) ? port : 8080);
  if (env.PUBLIC_URL && !isHttpUrl(publicUrl)) {
    problems.push(`PUBLIC_URL must be an http:// or https:// URL (got "${env.PUBLIC_URL}")`);
  } else if (!env.PUBLIC_URL && databaseUrl) {
    // Production is PostgreSQL: links built from a request's Host could point anywhere the request said.
    problems.push(
      'PUBLIC_URL is required with DATABASE_URL: the address browsers reach the service by (e.g. https://compliance.example.com); embed and console links are built from it',
    );
  }
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^/\s]+/.test(smtpUrl)) {
    // Never echo it: it carries the SMTP credentials.
    problems.push('SMTP_URL must be an smtp:// or smtps:// URL');
  }

  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  }

  const shutdownDrainRaw = env.SHUTDOWN_DRAIN_SECONDS || '5';
  const shutdownDrainSeconds = Number(shutdownDrainRaw);
  if (!(shutdownDrainSeconds >= 0 && shutdownDrainSeconds <= MAX_SHUTDOWN_DRAIN_SECONDS)) {
    problems.push(
      `SHUTDOWN_DRAIN_SECONDS must be a number of seconds from 0 to ${MAX_SHUTDOWN_DRAIN_SECONDS} (got "${shutdownDrainRaw}")`,
    );
  }

  const config: Config = {
    port,
    host,
    metricsPort,
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    redisUrl,
    backofficeToken,
    testClock: flag('COMPLIANCE_TEST_CLOCK', false),
    testClockStart,
    // Local sandbox default: the embedded database means a developer machine, where webhooks go to localhost.
    allowPrivateWebhooks: flag('COMPLIANCE_ALLOW_PRIVATE_WEBHOOKS', databaseUrl === undefined),
    logLevel,
    logFormat: chooseLogFormat(env.LOG_FORMAT, terminal, problems),
    shutdownDrainSeconds,
    workers: flag('COMPLIANCE_WORKERS', true),
    apiProcesses,
    processRole,
    geoipDbPath,
    sanctionsDataDir: env.SANCTIONS_DATA_DIR ? path.resolve(env.SANCTIONS_DATA_DIR) : undefined,
    sanctionsHitThreshold,
    sanctionsMaxAgeDays,
    sanctionsFetch,
    sanctionsSources: sources.sanctions,
    sanctionsFetchIntervalHours: positive('SANCTIONS_FETCH_INTERVAL_HOURS', 1, 'hours'),
    sanctionsFetchMaxDropPercent,
    geoipFetch,
    geoipFetchIntervalHours: positive('GEOIP_FETCH_INTERVAL_HOURS', 24, 'hours'),
    geoipProbe,
    secretsKey,
    secretsOldKeys,
    secretsReencryptBatchSize: wholePositive('SECRETS_REENCRYPT_BATCH_SIZE', 100, 'values'),
    trustProxy: trustedProxies(env.TRUST_PROXY, problems),
    authFailuresPerMinute: wholePositive('AUTH_FAILURES_PER_MINUTE', 30, 'failures'),
    securityLogRetentionDays: wholePositive('SECURITY_LOG_RETENTION_DAYS', 90, 'days'),
    reviewWarningHours: positive('REVIEW_WARNING_HOURS', 4, 'hours'),
    firstAdminEmail: (env.COMPLIANCE_FIRST_ADMIN_EMAIL || 'admin@localhost').trim().toLowerCase(),
    sanctionsRescreenBatchSize: wholePositive('SANCTIONS_RESCREEN_BATCH_SIZE', 500, 'users'),
    sanctionsListScreenBatchSize: wholePositive('SANCTIONS_LIST_SCREEN_BATCH_SIZE', 2000, 'users'),
    downloadTimeoutMs: positive('DOWNLOAD_TIMEOUT_SECONDS', 600, 'seconds') * 1000,
    downloadMaxBytes: positive('DOWNLOAD_MAX_MB', 1024, 'megabytes') * 1024 * 1024,
    publicUrl,
    staffSessionMaxHours: positive('STAFF_SESSION_MAX_HOURS', 12, 'hours'),
    smtpUrl,
    smtpFrom: env.SMTP_FROM || 'Compliance service <no-reply@localhost>',
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
