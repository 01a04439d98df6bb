import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { fetch } from 'undici';
import { VERSION } from '../version.js';
import { raiseAlert } from './alerts.js';
import type { Platform } from './context.js';
import type { Executor } from './db/database.js';
import type { DownloadOutcome, DownloadSource } from './db/platform-tables.js';
import { leaseDownloadSource, selectDownloadSources, updateDownloadSource } from './downloads.store.js';
import { ensureJobScheduled, scheduleJob } from './scheduler.js';

/** A file the service keeps current from a publisher: where it comes from and where the accepted version goes. */
export interface DownloadTarget {
  /** Stable name, e.g. `sanctions.un` or `geoip`. */
  id: string;
  url: string;
  /** An Authorization header value, never stored (MaxMind's account and licence key). */
  authorization?: string | undefined;
  /** The file the service reads; replaced by rename only once a download has been validated. */
  target: string;
}

/** What the caller's check of a downloaded file decided. `file` is what to install (the download, or a file taken out of it). */
export type Validation =
  { ok: true; file: string; version: string; entities?: number } | { ok: false; reason: string };

export interface DownloadReport {
  source: string;
  url: string;
  outcome: DownloadOutcome | 'busy' | null;
  error: string | null;
  version: string | null;
  entities: number | null;
  checked_at: Date | null;
  fetched_at: Date | null;
}

export interface DownloadLimits {
  timeoutMs: number;
  maxBytes: number;
}

class DownloadError extends Error {}

/** The URL as stored and shown: credentials in it are dropped. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}

function failure(error: unknown, timeoutMs: number): string {
  if (error instanceof DownloadError) return error.message;
  const name = (error as Error).name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return `no complete answer within ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: Error }).cause;
  return cause ? `${(error as Error).message}: ${cause.message}` : (error as Error).message;
}

/**
 * One GET into `into`, conditional on the previous download's validators: a server with nothing newer answers
 * 304 and nothing is written. The whole exchange must finish within the timeout.
 */
async function get(
  source: DownloadTarget,
  previous: DownloadSource | undefined,
  into: string,
  limits: DownloadLimits,
): Promise<
  | { status: 'not_modified' }
  | { status: 'downloaded'; etag: string | null; lastModified: string | null; sha256: string }
> {
  const headers: Record<string, string> = { 'user-agent': `compliance-service/${VERSION}` };
  // Validators belong to the URL they came from: a changed URL downloads unconditionally.
  if (previous?.url === redact(source.url)) {
    if (previous.etag) headers['if-none-match'] = previous.etag;
    if (previous.last_modified) headers['if-modified-since'] = previous.last_modified;
  }
  if (source.authorization) headers.authorization = source.authorization;
  const response = await fetch(source.url, { headers, signal: AbortSignal.timeout(limits.timeoutMs) });
  if (response.status === 304) {
    await response.body?.cancel();
    return { status: 'not_modified' };
  }
  if (response.status !== 200 || !response.body) {
    await response.body?.cancel();
    throw new DownloadError(`the server answered HTTP ${response.status}`);
  }
  const hash = createHash('sha256');
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > limits.maxBytes) return done(new DownloadError(`larger than ${limits.maxBytes} bytes`));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(
    Readable.fromWeb(response.body as ReadableStream<Uint8Array>),
    meter,
    createWriteStream(into),
  );
  return {
    status: 'downloaded',
    etag: response.headers.get('etag'),
    lastModified: response.headers.get('last-modified'),
    sha256: hash.digest('hex'),
  };
}

/** Takes the source for this process (a lease), creating its row on first use; undefined while another holds it. */
function claim(db: Executor, source: DownloadTarget, now: Date, leaseMs: number) {
  return leaseDownloadSource(
    db,
    { source_id: source.id, url: redact(source.url) },
    now,
    new Date(now.getTime() + leaseMs),
  );
}

export async function downloadStates(db: Executor, ids: string[]): Promise<Map<string, DownloadSource>> {
  if (ids.length === 0) return new Map();
  const rows = await selectDownloadSources(db, ids);
  return new Map(rows.map((row) => [row.source_id, row]));
}

/** A source's latest check as the back office shows it (outcome null: never checked yet). */
export const downloadReport = (row: DownloadSource): DownloadReport => ({
  source: row.source_id,
  url: row.url,
  outcome: row.outcome,
  error: row.error,
  version: row.version,
  entities: row.entities,
  checked_at: row.checked_at,
  fetched_at: row.fetched_at,
});

/**
 * Brings one source up to date: download (conditional), validate, install by rename, record. The file in use is
 * replaced only by a download that passed `validate`; anything else leaves it in force and, when the download
 * failed or was refused, raises an alert. Never throws for the download's sake.
 */
export async function refreshDownload(
  platform: Pick<Platform, 'db' | 'clock' | 'log'>,
  source: DownloadTarget,
  limits: DownloadLimits,
  validate: (file: string, previous: DownloadSource) => Promise<Validation>,
): Promise<DownloadReport> {
  const { db, clock, log } = platform;
  const url = redact(source.url);
  const previous = await claim(db, source, clock.now(), limits.timeoutMs + 60_000);
  if (!previous) {
    return { ...downloadReport((await downloadStates(db, [source.id])).get(source.id)!), outcome: 'busy' };
  }
  // Beside the target, so the final rename stays on one file system; hidden, so no reader takes it for data.
  const work = path.join(path.dirname(source.target), `.download-${randomBytes(6).toString('hex')}`);
  let outcome: DownloadOutcome;
  let error: string | null = null;
  let accepted: { version: string; entities: number | null; sha256: string } | undefined;
  let validators: { etag: string | null; last_modified: string | null } = {
    etag: previous.etag,
    last_modified: previous.last_modified,
  };
  try {
    await mkdir(work, { recursive: true });
    const fetched = await get(source, previous, path.join(work, 'download'), limits);
    if (fetched.status === 'not_modified') outcome = 'not_modified';
    else {
      validators = { etag: fetched.etag, last_modified: fetched.lastModified };
      if (fetched.sha256 === previous.sha256 && existsSync(source.target)) outcome = 'unchanged';
      else {
        const checked = await validate(path.join(work, 'download'), previous);
        if (!checked.ok) {
          outcome = 'refused';
          error = checked.reason;
          // Refused validators would make the next check a 304 for the same bad file: forget them.
          validators = { etag: null, last_modified: null };
        } else {
          await mkdir(path.dirname(source.target), { recursive: true });
          await rename(checked.file, source.target);
          outcome = 'updated';
          accepted = { version: checked.version, entities: checked.entities ?? null, sha256: fetched.sha256 };
        }
      }
    }
  } catch (caught) {
    outcome = 'failed';
    error = failure(caught, limits.timeoutMs);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const now = clock.now();
  const row = await updateDownloadSource(db, source.id, {
    url,
    ...validators,
    checked_at: now,
    outcome,
    error,
    lease_until: null,
    ...(accepted && { fetched_at: now, ...accepted }),
  });
  if (outcome === 'failed' || outcome === 'refused') {
    const verb = outcome === 'failed' ? 'failed' : 'was refused';
    await raiseAlert(
      db,
      log,
      {
        kind: `download_${outcome}`,
        subject: source.id,
        message: `The download of ${source.id} ${verb}: ${error}; the version in use stays`,
        details: { url, error },
      },
      now,
    );
  } else {
    log.info({ source: source.id, outcome, version: row.version }, 'download checked');
  }
  return downloadReport(row);
}

const HOUR_MS = 3_600_000;

/**
 * A download kept current on a schedule: the first run at start, then every `intervalHours` on the service clock,
 * as one job for the whole deployment. The download runs after the job's transaction has committed (no transaction
 * held open over it); until it ends the job stays due again in an hour, so a process that dies mid-way is replaced.
 */
export async function registerScheduledDownload(
  platform: Platform,
  job: { kind: string; enabled: () => boolean; intervalHours: number; run: () => Promise<unknown> },
): Promise<void> {
  platform.scheduler.register(job.kind, async (tx, _job, now) => {
    if (!job.enabled()) return; // switched off since it was scheduled: the job ends here
    await scheduleJob(tx, { kind: job.kind, subjectId: 'all', dueAt: new Date(now.getTime() + HOUR_MS) });
    return async () => {
      await job.run();
      const dueAt = new Date(now.getTime() + job.intervalHours * HOUR_MS);
      await scheduleJob(platform.db, { kind: job.kind, subjectId: 'all', dueAt });
    };
  });
  if (job.enabled()) {
    await ensureJobScheduled(platform.db, { kind: job.kind, subjectId: 'all', dueAt: platform.clock.now() });
  }
}
