import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import type { Platform } from './context.js';

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

  constructor(
    private readonly platform: Platform,
    private readonly intervalMs = 250,
  ) {}

  start(): void {
    this.stopped = false;
    this.stopping = false;
    this.schedule();
  }

  /** Runs one pass now: due jobs, then each poller's queue, then webhook batches until none is due. */
  async tick(): Promise<void> {
    const { platform } = this;
    if (platform.testClock) await platform.testClock.refresh(platform.db);
    await platform.scheduler.runDue();
    for (const poller of platform.pollers) {
      // A failing queue must not stop the others or webhook delivery; its batch rolls back and is retried next pass.
      try {
        while ((await poller.run()) > 0 && !this.stopping) {
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

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.current = this.tick()
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
    clearTimeout(this.timer);
    await this.current;
  }
}
