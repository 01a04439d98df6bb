import { setTimeout as delay } from 'node:timers/promises';
import type { Transaction } from 'kysely';
import type { Platform } from '../../platform/context.js';
import type { RowOf } from '../../platform/db/precompiled.js';
import type { DB } from '../../platform/db/schema.js';
import { applyTrips } from './aml.cases.service.js';
import { dequeueEvents, dropFromQueue, findEvent } from './aml.store.js';
import type { AmlEvent } from './aml.tables.js';
import { velocity } from './rules/r002-velocity.js';
import { structuring } from './rules/r003-structuring.js';
import { MINIMAL_PLAY_JOB, minimalPlayAfterWindow, scheduleMinimalPlay } from './rules/r004-minimal-play.js';
import { roundTripping } from './rules/r005-round-tripping.js';
import { multiAccount } from './rules/r006-multi-account.js';
import { geographicAnomaly } from './rules/r007-geographic-anomaly.js';
import { dormantReactivation } from './rules/r008-dormant-reactivation.js';
import { aggregateThreshold } from './rules/r009-aggregate-threshold.js';
import { precompiledChecks, runChecks, type Check } from './rules/checks.js';
import type { HistoryPoint, Trip } from './rules/types.js';

/** Events claimed per transaction. */
export const BATCH_SIZE = 200;
/**
 * On embedded PGlite, which is one connection on the API's own thread, a transaction holds the database and
 * every API request waits for it to end: evaluation runs one event per transaction, and rests as long as it
 * worked, so acknowledgements keep at least half of the thread whatever the backlog.
 */
export const EMBEDDED_BATCH_SIZE = 1;

/** What decides which rules an event runs: the set of checks, so the statement, is the same for one shape. */
interface EventShape {
  type: AmlEvent['event_type'];
  fingerprint: boolean;
  session: boolean;
}

/** An event's values the rules read, with their PostgreSQL types: a batch sends one array of each. */
const EVENT_POINT = {
  tenantId: 'text',
  userId: 'text',
  at: 'timestamptz',
  transactionId: 'text',
  usdCents: 'bigint',
  fingerprint: 'text',
  sessionId: 'text',
} as const;

type EventPoint = RowOf<typeof EVENT_POINT>;

/**
 * The async rules for an event of this shape, in event time (T = occurred_at). Each rule runs only
 * for the event types that can change its outcome; R-004 is scheduled by evaluateEvent and decided when its window
 * closes.
 */
function eventChecks(shape: EventShape, e: EventPoint): Check[] {
  const p: HistoryPoint = { tenantId: e.tenantId, userId: e.userId, at: e.at };
  const { type } = shape;
  const checks: Check[] = [];
  if (type === 'deposit') checks.push(velocity(p), structuring(p));
  if (type === 'deposit' || type === 'withdrawal') {
    const leg = { type, transactionId: e.transactionId, usdCents: e.usdCents, lookAhead: true };
    checks.push(roundTripping(p, leg));
  }
  if (shape.fingerprint) {
    const { tenantId, userId, fingerprint, transactionId, at } = e;
    checks.push(multiAccount({ tenantId, userId, fingerprint, transactionId, at }));
  }
  if (shape.session) checks.push(geographicAnomaly(p, e.sessionId));
  if (type === 'deposit' || type === 'withdrawal' || type === 'wager') {
    checks.push(dormantReactivation(p), aggregateThreshold(p));
  }
  return checks;
}

/** One compiled statement per event shape, made when the first event of that shape is evaluated. */
const checksByShape = new Map<string, ReturnType<typeof precompiledChecks<typeof EVENT_POINT>>>();

function shapeOf(event: AmlEvent): EventShape {
  const session = event.metadata.session_id;
  return {
    type: event.event_type,
    fingerprint: event.fingerprint !== null,
    session: (event.event_type === 'login' || event.event_type === 'deposit') && typeof session === 'string',
  };
}

function pointOf(event: AmlEvent): EventPoint {
  const session = event.metadata.session_id;
  return {
    tenantId: event.tenant_id,
    userId: event.user_id,
    at: event.occurred_at,
    transactionId: event.transaction_id,
    usdCents: event.usd_cents,
    fingerprint: event.fingerprint ?? '',
    sessionId: typeof session === 'string' ? session : '',
  };
}

/**
 * The async rules for a batch of events: one statement per event shape in the batch, all of that shape's events
 * read at once. Returns each event's trips, in the batch's order. The reads see only stored events, never the
 * findings of this batch, so reading the batch at once finds what reading its events one by one would.
 */
export async function evaluateEvents(tx: Transaction<DB>, events: AmlEvent[]): Promise<Trip[][]> {
  const byShape = new Map<string, { shape: EventShape; indexes: number[] }>();
  events.forEach((event, i) => {
    const shape = shapeOf(event);
    const key = `${shape.type}/${shape.fingerprint}/${shape.session}`;
    const group = byShape.get(key) ?? { shape, indexes: [] };
    group.indexes.push(i);
    byShape.set(key, group);
  });
  const trips: Trip[][] = events.map(() => []);
  for (const [key, { shape, indexes }] of byShape) {
    let run = checksByShape.get(key);
    if (!run) {
      run = precompiledChecks(EVENT_POINT, (e: EventPoint) => eventChecks(shape, e));
      checksByShape.set(key, run);
    }
    const found = await run(
      tx,
      indexes.map((i) => pointOf(events[i]!)),
    );
    indexes.forEach((eventIndex, j) => (trips[eventIndex] = found[j]!.trips));
  }
  for (const event of events) await scheduleMinimalPlay(tx, event);
  return trips;
}

/**
 * One batch of the evaluation queue, in one transaction: take up to `limit` events off the queue (SKIP LOCKED, so
 * several processes share the queue and none evaluates an event twice), record findings, commit. A crash before
 * the commit leaves the batch queued for the next pass. Returns how many were evaluated; `claimed` receives their
 * ids as soon as they are taken.
 */
async function evaluateBatch(platform: Platform, limit: number, claimed: string[] = []): Promise<number> {
  return platform.db.transaction().execute(async (tx) => {
    const events = await dequeueEvents(tx, limit);
    claimed.push(...events.map((e) => e.event_id));
    if (events.length === 0) return 0;
    const now = platform.clock.now();
    const trips = await evaluateEvents(tx, events);
    for (const [i, event] of events.entries()) {
      if (trips[i]!.length > 0) await applyTrips(tx, event.tenant_id, trips[i]!, now);
    }
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
 * time, and an event that fails alone is logged and taken off the queue, so one bad row cannot stall it.
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
      await dropFromQueue(platform.db, claimed);
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
    queueTable: 'aml_evaluation_queue',
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
