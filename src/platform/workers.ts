import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import type { Platform, Poller } from './context.js';
import { vacuumQueueTable } from './workers.store.js';

/**
 * Rows a process takes off a queue table between two vacuums of it. Each queued row is inserted once and deleted
 * once; until a vacuum, the dead rows stay in the table and at the head of its index, and every take reads through
 * them (0.2 ms per take after 57,000 events, growing without bound). Autovacuum visits a table at most once a
 * minute, and never where it is turned off, so the worker vacuums its queue tables itself.
 */
export const QUEUE_VACUUM_EVERY = 5_000;

/**
 * The background loop of a process: runs due scheduled work and delivers webhooks. Every process may run one;
 * the scheduler and dispatcher claim work with SKIP LOCKED, so nothing runs or is sent twice.
 */
export class Workers {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private stopped = true;
  /** Set by stop(): ends a drain in progress. (Not `stopped`, which is also true before start(): tests tick by hand.) */
  private stopping = false;

  /** Rows taken off each queue table since its last vacuum by this process. */
  private readonly takenSinceVacuum = new Map<string, number>();

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
    await platform.scheduler.runDue();
    for (const poller of platform.pollers) {
      // A failing queue must not stop the others or webhook delivery; its batch rolls back and is retried next pass.
      try {
        for (let taken; (taken = await poller.run()) > 0;) {
          await this.vacuumWhenDue(poller, taken);
          if (this.stopping) break;
          // Between batches, let pending I/O (API requests of this process) run first.
          await setImmediatePromise();
        }
      } catch (error) {
        platform.log.error({ err: error, poller: poller.name }, 'poller failed');
      }
    }
    while ((await platform.dispatcher.runOnce()) > 0 && !this.stopping) {
      /* drain */
    }
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

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.current = this.pass()
        .catch((error: unknown) => this.platform.log.error({ err: error }, 'worker pass failed'))
        .finally(() => {
          this.current = undefined;
          this.schedule();
        });
    }, this.intervalMs);
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
