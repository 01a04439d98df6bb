import { setTimeout as delay, setImmediate as setImmediatePromise } from 'node:timers/promises';
import type { Platform, Poller } from './context.js';
import { foregroundPressure, restAfterBatch } from './pacing.js';
import type { ForegroundLoad } from './process-load.js';
import { nextDueAt } from './scheduler.store.js';
import { vacuumQueueTable } from './workers.store.js';

/**
 * Rows a process takes off a queue table between two vacuums of it. Each queued row is inserted once and deleted
 * once; until a vacuum, the dead rows stay in the table and at the head of its index, and every take reads through
 * them (0.2 ms per take after 57,000 events, growing without bound). Autovacuum visits a table at most once a
 * minute, and never where it is turned off, so the worker vacuums its queue tables itself.
 */
export const QUEUE_VACUUM_EVERY = 5_000;

/**
 * Connections of a worker process: its backends compete with the API's for the same cores, so it holds few (one
 * transaction of scheduled work or queue batch at a time, the rest for webhook attempts' records).
 */
export const WORKER_POOL_SIZE = 4;

/** The shortest wait between two passes when work is due sooner than the interval (a paced rest ending). */
const SOONEST_PASS_MS = 10;
/**
 * How long a pass drains one queue before it moves on: a backlog of AML events delays webhook deliveries and due
 * jobs by at most this much per pass.
 */
const POLLER_SLICE_MS = 500;
/** How often the loop reads the foreground's load (the API processes record theirs each second). */
const FOREGROUND_READ_MS = 250;

/**
 * The background loop of a process: runs due scheduled work and delivers webhooks. Every process may run one;
 * the scheduler and dispatcher claim work with SKIP LOCKED, so nothing runs or is sent twice. Paced work rests
 * between its batches while the API is busy (ADR 0019); the loop wakes when the next rest or job ends, and at
 * least every interval.
 */
export class Workers {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private stopped = true;
  /** Set by stop(): ends a drain in progress. (Not `stopped`, which is also true before start(): tests tick by hand.) */
  private stopping = false;

  /** Rows taken off each queue table since its last vacuum by this process. */
  private readonly takenSinceVacuum = new Map<string, number>();
  /** Paced pollers resting: the service time each may run again. */
  private readonly restingUntil = new Map<string, number>();
  /** A queue left work for the next pass when its slice ran out. */
  private passAgainAtOnce = false;
  private foregroundReadAt = -Infinity;

  constructor(
    private readonly platform: Platform,
    private readonly intervalMs = 250,
    private readonly queueVacuumEvery = QUEUE_VACUUM_EVERY,
  ) {}

  start(): void {
    this.stopped = false;
    this.stopping = false;
    this.platform.dispatcher.keepClaiming(true);
    this.schedule();
  }

  /**
   * Runs one pass now and waits for its webhook attempts: due jobs, each poller's queue, then webhook deliveries
   * until none is due and none is in flight (tests and the CLI tick by hand).
   */
  async tick(): Promise<void> {
    await this.pass();
    // As each attempt ends, its tenant's slot frees: claim what is due again.
    await this.platform.dispatcher.drain(() => this.stopping);
  }

  /**
   * One pass of the loop: starts webhook attempts without waiting for them, so a slow destination never holds up the
   * next pass. Between passes, each attempt that ends claims the next due events itself (keepClaiming).
   */
  private async pass(): Promise<void> {
    const { platform } = this;
    if (platform.testClock) await platform.testClock.refresh(platform.db);
    const foreground = await this.foreground();
    await this.timed(() => platform.scheduler.runDue());
    for (const poller of platform.pollers) {
      if ((this.restingUntil.get(poller.name) ?? 0) > platform.clock.now().getTime()) continue;
      this.restingUntil.delete(poller.name);
      // A failing queue must not stop the others or webhook delivery; its batch rolls back and is retried next pass.
      const sliceStarted = performance.now();
      try {
        for (;;) {
          const { value: taken, ms } = await this.timed(() => poller.run());
          if (taken === 0) break;
          await this.vacuumWhenDue(poller, taken);
          if (this.stopping) break;
          const paced = await this.restAfter(poller, { items: taken, ms }, foreground);
          const rest = Math.max(paced, poller.restsAsLongAsItWorks ? ms : 0);
          // On a test clock a paced rest ends the poller's part of the pass: the test moves the clock on.
          if (platform.testClock && paced > 0) {
            this.restingUntil.set(poller.name, platform.clock.now().getTime() + paced);
            break;
          }
          // Past its slice of the pass, the queue waits for the next pass, due at once: due jobs and webhook
          // deliveries go first.
          if (!platform.testClock && performance.now() - sliceStarted + rest > POLLER_SLICE_MS) {
            if (rest > 0) this.restingUntil.set(poller.name, platform.clock.now().getTime() + rest);
            else this.passAgainAtOnce = true;
            break;
          }
          // Between batches, let pending I/O (API requests of this process) run first.
          if (rest > 0) await delay(rest);
          else await setImmediatePromise();
        }
      } catch (error) {
        platform.log.error({ err: error, poller: poller.name }, 'poller failed');
      }
    }
    while ((await platform.dispatcher.runOnce()) > 0 && !this.stopping) {
      /* drain */
    }
  }

  /** The foreground, read again at most every FOREGROUND_READ_MS (every pass on a test clock). */
  private async foreground(): Promise<ForegroundLoad> {
    const { platform } = this;
    if (platform.testClock || performance.now() - this.foregroundReadAt >= FOREGROUND_READ_MS) {
      this.foregroundReadAt = performance.now();
      return platform.load.refresh();
    }
    return platform.load.latest;
  }

  /** A paced poller's rest after a batch; its backlog is read only while the foreground is busy enough to matter. */
  private async restAfter(
    poller: Poller,
    batch: { items: number; ms: number },
    foreground: ForegroundLoad,
  ): Promise<number> {
    if (!poller.pacing || foregroundPressure(foreground.busy) === 0) return 0;
    const { waiting, oldestAt } = await poller.pacing.backlog();
    if (!oldestAt) return 0;
    return restAfterBatch({
      batch,
      waiting,
      oldestAgeMs: this.platform.clock.now().getTime() - oldestAt.getTime(),
      deadlineMs: poller.pacing.deadlineMs,
      foregroundBusy: foreground.busy,
      workers: foreground.workers,
    });
  }

  /** Runs background work, counting its time as this process's background time (ProcessLoad). */
  private async timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
    const started = performance.now();
    try {
      return { value: await work(), ms: performance.now() - started };
    } finally {
      this.platform.load.noteBackground(performance.now() - started);
    }
  }

  /**
   * Until the next pass: the interval, or less when a paced rest ends or a job falls due sooner (never on a test
   * clock). A job already due that this pass did not run is held by another process: it does not hurry this one.
   */
  private async untilNextPass(): Promise<number> {
    const { platform } = this;
    if (platform.testClock) return this.intervalMs;
    if (this.passAgainAtOnce) {
      this.passAgainAtOnce = false;
      return SOONEST_PASS_MS;
    }
    const now = platform.clock.now().getTime();
    const nextJob = (await nextDueAt(platform.db))?.getTime() ?? Infinity;
    const next = Math.min(...[nextJob, ...this.restingUntil.values()].filter((at) => at > now));
    return Math.min(this.intervalMs, Math.max(SOONEST_PASS_MS, next - now));
  }

  private async vacuumWhenDue(poller: Poller, taken: number): Promise<void> {
    const table = poller.queueTable;
    if (!table) return;
    const since = (this.takenSinceVacuum.get(table) ?? 0) + taken;
    if (since < this.queueVacuumEvery) {
      this.takenSinceVacuum.set(table, since);
      return;
    }
    this.takenSinceVacuum.set(table, 0);
    try {
      await vacuumQueueTable(this.platform.db, table);
    } catch (error) {
      // The queue still works, only slower: not a reason to stop draining it.
      this.platform.log.warn({ err: error, table }, 'queue vacuum failed');
    }
  }

  private schedule(delayMs = this.intervalMs): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      let next = this.intervalMs;
      this.current = this.pass()
        .then(async () => {
          next = await this.untilNextPass();
        })
        .catch((error: unknown) => this.platform.log.error({ err: error }, 'worker pass failed'))
        .finally(() => {
          this.current = undefined;
          this.schedule(next);
        });
    }, delayMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping = true;
    this.platform.dispatcher.keepClaiming(false);
    clearTimeout(this.timer);
    await this.current;
    await this.platform.dispatcher.idle();
  }
}
