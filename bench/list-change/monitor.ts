/**
 * What the list-change benchmark watches while a screening runs: every 250 ms the resident memory of the service's
 * processes by role (the worker, whose loop runs the job, and the API processes; embedded PGlite is one process
 * doing both), and every second the version's progress (through the back office, as staff see it) and the age of
 * the oldest AML event waiting for evaluation (the worker's other work).
 */
import pg from 'pg';
import { childPids, processRole, sampleProcess } from '../lib/proc.js';
import type { ServiceProcess } from '../service-process.js';

const MB = 1024 * 1024;

export interface ScreeningView {
  started_at: string;
  total: number;
  screened: number;
  new_hits: number;
  phase: string | null;
  finished_at: string | null;
  seconds_to_last_player: number | null;
}

export interface VersionView {
  version_id: string;
  list: string;
  published_on: string;
  accepted_at: string;
  added: number;
  changed: number;
  removed: number;
  screening: ScreeningView | null;
}

/** The service's processes by role: supervised children (PostgreSQL) or the one embedded process (PGlite). */
export function rolePids(service: ServiceProcess): { worker: number[]; api: number[] } {
  const children = childPids(service.pid);
  if (children.length === 0) return { worker: [service.pid], api: [service.pid] };
  const roles = children.map((pid) => ({ pid, role: processRole(pid) }));
  return {
    worker: roles.filter((r) => r.role === 'worker').map((r) => r.pid),
    api: roles.filter((r) => r.role === 'api').map((r) => r.pid),
  };
}

/** Largest resident set (MB) of each role while the monitor ran, and the worker's level when it started. */
export class RssMonitor {
  readonly peak = { worker: 0, api: 0 };
  readonly start: { worker: number; api: number };
  private samples = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly service: ServiceProcess) {
    this.start = this.sample();
    this.timer = setInterval(() => this.sample(), 250);
  }

  private sample() {
    const pids = rolePids(this.service);
    const rss = (list: number[]) =>
      Math.max(0, ...list.map((pid) => (sampleProcess(pid)?.rssBytes ?? 0) / MB));
    const now = { worker: rss(pids.worker), api: rss(pids.api) };
    this.peak.worker = Math.max(this.peak.worker, now.worker);
    this.peak.api = Math.max(this.peak.api, now.api);
    this.samples++;
    return now;
  }

  stop() {
    clearInterval(this.timer);
    this.sample();
    const r = (n: number) => Math.round(n);
    return {
      samples: this.samples,
      worker_start_mb: r(this.start.worker),
      worker_peak_mb: r(this.peak.worker),
      api_start_mb: r(this.start.api),
      api_peak_mb: r(this.peak.api),
    };
  }
}

/** The version's progress every second until it is finished, and the oldest queued AML event's age meanwhile. */
export class ProgressMonitor {
  latest: VersionView | undefined;
  maxEvaluationAgeSeconds = 0;
  private readonly client: pg.Client | undefined;
  private readonly running: Promise<void>;
  private stopped = false;

  constructor(
    private readonly service: ServiceProcess,
    private readonly token: string,
    private readonly versionId: string,
    databaseUrl: string | undefined,
  ) {
    this.client = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : undefined;
    this.running = this.run();
  }

  get finished(): boolean {
    return !!this.latest?.screening?.finished_at;
  }

  private async run() {
    await this.client?.connect();
    while (!this.stopped) {
      this.latest = (await this.service.backoffice(
        this.token,
        'GET',
        `/sanctions/lists/versions/${this.versionId}`,
      )) as unknown as VersionView;
      if (this.client) {
        const { rows } = await this.client.query(
          `select coalesce(extract(epoch from clock_timestamp() - min(received_at)), 0)::float8 as age
           from aml_evaluation_queue`,
        );
        this.maxEvaluationAgeSeconds = Math.max(this.maxEvaluationAgeSeconds, rows[0].age as number);
      }
      if (this.finished) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    await this.client?.end();
  }

  /** Resolves when the screening has finished (or `timeoutMs` passed: then false). */
  async untilFinished(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.finished && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 500));
    return this.finished;
  }

  async stop() {
    this.stopped = true;
    await this.running;
  }
}
