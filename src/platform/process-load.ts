import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Executor } from './db/database.js';
import { readProcessLoad, recordProcessLoad } from './process-load.store.js';

/** How often a process records how busy it is. */
const LOAD_SAMPLE_MS = 1_000;
/** A sample older than this (service clock) is a process that stopped or hangs: not counted. */
const LOAD_FRESH_MS = 5_000;
const FORGET_AFTER_MS = 86_400_000;

/** What background work paces itself against: the busiest API process, and how many workers share the work. */
export interface ForegroundLoad {
  busy: number;
  workers: number;
}

const share = (ms: number, of: number) => (of > 0 ? Math.min(1, Math.max(0, ms / of)) : 0);

/**
 * This process's side of the shared load table (ADR 0019). A process serving the API records its event loop's busy
 * share each second, less the time its own worker loop took (the embedded database runs both in one process). A
 * process running workers records that it is alive and reads the foreground at each pass of its loop.
 */
export class ProcessLoad {
  private readonly id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private timer: NodeJS.Timeout | undefined;
  /** Time this process spent on background work, in total (ms). */
  private backgroundMs = 0;
  private workerSample: { at: number; backgroundMs: number; real: number } | undefined;
  /** The foreground as the worker loop read it last: paced jobs read it between passes. */
  latest: ForegroundLoad = { busy: 0, workers: 1 };

  constructor(
    private readonly db: Executor,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** In a process serving the API: records its busy share every second until stop(). */
  startSampling(): void {
    let previous = performance.eventLoopUtilization();
    let previousBackgroundMs = this.backgroundMs;
    this.timer = setInterval(() => {
      const current = performance.eventLoopUtilization();
      const since = performance.eventLoopUtilization(current, previous);
      const background = share(this.backgroundMs - previousBackgroundMs, since.idle + since.active);
      previous = current;
      previousBackgroundMs = this.backgroundMs;
      this.record('api', Math.max(0, since.utilization - background)).catch((error: unknown) =>
        this.log.warn({ err: error }, 'process load not recorded'),
      );
    }, LOAD_SAMPLE_MS).unref();
  }

  /** Counts time the worker loop of this process spent on a batch. */
  noteBackground(ms: number): void {
    this.backgroundMs += ms;
  }

  /**
   * At each pass of a worker loop: records the worker alive (at most once a second of service time, with its
   * background share since) and reads the foreground.
   */
  async refresh(): Promise<ForegroundLoad> {
    const now = this.clock.now().getTime();
    const last = this.workerSample;
    if (!last || now - last.at >= LOAD_SAMPLE_MS) {
      const real = performance.now();
      const busy = last ? share(this.backgroundMs - last.backgroundMs, real - last.real) : 0;
      await this.record('worker', busy);
      this.workerSample = { at: now, backgroundMs: this.backgroundMs, real };
    }
    const read = await readProcessLoad(this.db, new Date(now - LOAD_FRESH_MS));
    this.latest = { busy: read.busy, workers: Math.max(1, read.workers) };
    return this.latest;
  }

  private async record(role: 'api' | 'worker', busy: number): Promise<void> {
    const now = this.clock.now();
    await recordProcessLoad(
      this.db,
      { process_id: `${this.id}:${role}`, role, busy, sampled_at: now },
      new Date(now.getTime() - FORGET_AFTER_MS),
    );
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
