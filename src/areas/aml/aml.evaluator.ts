import { setTimeout as delay } from 'node:timers/promises';
import type { Transaction } from 'kysely';
import type { Platform } from '../../platform/context.js';
import type { DB } from '../../platform/db/schema.js';
import { applyTrips } from './aml.cases.service.js';
import { claimUnevaluated, findEvent, markEvaluated } from './aml.store.js';
import type { AmlEvent } from './aml.tables.js';
import { velocity } from './rules/r002-velocity.js';
import { structuring } from './rules/r003-structuring.js';
import { MINIMAL_PLAY_JOB, minimalPlayAfterWindow, scheduleMinimalPlay } from './rules/r004-minimal-play.js';
import { roundTripping } from './rules/r005-round-tripping.js';
import { multiAccount } from './rules/r006-multi-account.js';
import { geographicAnomaly } from './rules/r007-geographic-anomaly.js';
import { dormantReactivation } from './rules/r008-dormant-reactivation.js';
import { aggregateThreshold } from './rules/r009-aggregate-threshold.js';
import { runChecks, type Check } from './rules/checks.js';
import type { HistoryPoint, Trip } from './rules/types.js';

/** Events claimed per transaction. */
export const BATCH_SIZE = 200;
/**
 * On embedded PGlite, which is one connection on the API's own thread, a transaction holds the database and
 * every API request waits for it to end: evaluation runs one event per transaction, and rests as long as it
 * worked, so acknowledgements keep at least half of the thread whatever the backlog.
 */
export const EMBEDDED_BATCH_SIZE = 1;

/**
 * The async rules for one event, in event time (T = occurred_at), read in one statement. Each
 * rule runs only for the event types that can change its outcome; R-004 is scheduled here and decided when its
 * window closes.
 */
export async function evaluateEvent(tx: Transaction<DB>, event: AmlEvent): Promise<Trip[]> {
  const p: HistoryPoint = { tenantId: event.tenant_id, userId: event.user_id, at: event.occurred_at };
  const type = event.event_type;
  const checks: Check[] = [];
  if (type === 'deposit') {
    checks.push(velocity(p), structuring(p));
    await scheduleMinimalPlay(tx, event);
  }
  if (type === 'deposit' || type === 'withdrawal') {
    const leg = { type, transactionId: event.transaction_id, usdCents: event.usd_cents, lookAhead: true };
    checks.push(roundTripping(p, leg));
  }
  if (event.fingerprint) {
    checks.push(
      multiAccount({
        tenantId: event.tenant_id,
        userId: event.user_id,
        fingerprint: event.fingerprint,
        transactionId: event.transaction_id,
        at: event.occurred_at,
      }),
    );
  }
  const session = event.metadata.session_id;
  if ((type === 'login' || type === 'deposit') && typeof session === 'string') {
    checks.push(geographicAnomaly(p, session));
  }
  if (type === 'deposit' || type === 'withdrawal' || type === 'wager') {
    checks.push(dormantReactivation(p), aggregateThreshold(p));
  }
  return runChecks(tx, checks);
}

/**
 * One batch of the evaluation queue, in one transaction: claim up to `limit` events (SKIP LOCKED, so several
 * processes share the queue and none evaluates an event twice), record findings, mark them evaluated, commit. A
 * crash before the commit leaves the batch queued for the next pass. Returns how many were evaluated; `claimed`
 * receives their ids as soon as they are claimed.
 */
async function evaluateBatch(platform: Platform, limit: number, claimed: string[] = []): Promise<number> {
  return platform.db.transaction().execute(async (tx) => {
    const events = await claimUnevaluated(tx, limit);
    claimed.push(...events.map((e) => e.event_id));
    if (events.length === 0) return 0;
    const now = platform.clock.now();
    for (const event of events) {
      const trips = await evaluateEvent(tx, event);
      if (trips.length > 0) await applyTrips(tx, event.tenant_id, trips, now);
    }
    await markEvaluated(tx, claimed, now);
    return events.length;
  });
}

/** Lock waits, deadlocks, serialization failures and lost connections: the same work succeeds on a retry. */
function isTransient(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (/^(08|40|53|55|57)/.test(code) || /^E[A-Z]+$/.test(code));
}

/**
 * Drains up to one batch of events. A batch that fails for a reason a retry would not cure is re-run one event at a
 * time, and an event that fails alone is logged and marked evaluated, so one bad row cannot stall the queue.
 */
export async function evaluatePending(platform: Platform): Promise<number> {
  const batchSize = platform.config.databaseUrl ? BATCH_SIZE : EMBEDDED_BATCH_SIZE;
  try {
    return await evaluateBatch(platform, batchSize);
  } catch (error) {
    if (isTransient(error)) throw error;
    platform.log.error({ err: error }, 'aml evaluation batch failed; evaluating one event at a time');
  }
  let evaluated = 0;
  while (evaluated < batchSize) {
    const claimed: string[] = [];
    try {
      if ((await evaluateBatch(platform, 1, claimed)) === 0) break;
    } catch (error) {
      if (claimed.length === 0 || isTransient(error)) throw error;
      platform.log.error({ err: error, event_id: claimed[0] }, 'aml event could not be evaluated; skipped');
      await markEvaluated(platform.db, claimed, platform.clock.now());
    }
    evaluated++;
  }
  return evaluated;
}

/** Wires AML's background work: the evaluation queue into the worker loop, and R-004's window-close job. */
export function registerAmlWork(platform: Platform): void {
  const embedded = !platform.config.databaseUrl;
  platform.pollers.push({
    name: 'aml.evaluate',
    run: async () => {
      const started = performance.now();
      const evaluated = await evaluatePending(platform);
      if (embedded && evaluated > 0) await delay(performance.now() - started);
      return evaluated;
    },
  });
  platform.scheduler.register(MINIMAL_PLAY_JOB, async (tx, job, now) => {
    const deposit = await findEvent(tx, job.subject_id);
    if (!deposit) return;
    const trips = await runChecks(tx, [minimalPlayAfterWindow(deposit)]);
    if (trips.length > 0) await applyTrips(tx, deposit.tenant_id, trips, now);
  });
}
