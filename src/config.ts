import os from 'node:os';
import path from 'node:path';

/** The service's whole configuration, read from the environment once at start. Nothing else reads process.env. */
export interface Config {
  port: number;
  host: string;
  /** postgres://… for a PostgreSQL server; undefined runs embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  backofficeToken: string | undefined;
  testClock: boolean;
  allowPrivateWebhooks: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
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
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Parses an environment. Every bad value is reported, not just the first. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];

  const flag = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    problems.push(`${name} must be 1 or 0 (got "${raw}")`);
    return fallback;
  };

  const portRaw = env.PORT || '8080';
  const port = Number(portRaw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.push(`PORT must be an integer from 0 to 65535 (got "${portRaw}")`);
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

  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  }

  const config: Config = {
    port,
    host: env.HOST || '127.0.0.1',
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    redisUrl,
    backofficeToken,
    testClock: flag('COMPLIANCE_TEST_CLOCK', false),
    // Local sandbox default: the embedded database means a developer machine, where webhooks go to localhost.
    allowPrivateWebhooks: flag('COMPLIANCE_ALLOW_PRIVATE_WEBHOOKS', databaseUrl === undefined),
    logLevel,
    workers: flag('COMPLIANCE_WORKERS', true),
    apiProcesses,
    processRole,
    geoipDbPath,
    sanctionsDataDir: env.SANCTIONS_DATA_DIR ? path.resolve(env.SANCTIONS_DATA_DIR) : undefined,
    sanctionsHitThreshold,
    sanctionsMaxAgeDays,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
