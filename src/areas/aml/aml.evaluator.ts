import { isTransient } from '../../platform/db/transient.js';
import type { Transaction } from 'kysely';
import type { Platform } from '../../platform/context.js';
import type { Executor } from '../../platform/db/database.js';
import type { ScheduledJob } from '../../platform/db/platform-tables.js';
import type { RowOf } from '../../platform/db/precompiled.js';
import type { DB } from '../../platform/db/schema.js';
import { scheduleJob } from '../../platform/scheduler.js';
import { systemContext, withTransaction } from '../../platform/service-context.js';
import { AML_RULES, type AmlRule, type RuleCode } from './aml.rules.js';
import { rollbackToSavepoint, savepoint } from '../../platform/db/savepoints.js';
import { dequeueEvents, dropFromQueue, evaluationBacklog, findEvent } from './aml.store.js';
import type { AmlEvent } from './aml.tables.js';
import { velocity } from './rules/r002-velocity.js';
import { structuring } from './rules/r003-structuring.js';
import { scheduleMinimalPlay } from './rules/r004-minimal-play.js';
import { roundTripping } from './rules/r005-round-tripping.js';
import { multiAccount } from './rules/r006-multi-account.js';
import { geographicAnomaly } from './rules/r007-geographic-anomaly.js';
import { dormantReactivation } from './rules/r008-dormant-reactivation.js';
import { aggregateThreshold } from './rules/r009-aggregate-threshold.js';
import { precompiledChecks, type Check } from './statements/checks.js';
import type { HistoryPoint, Trip } from './rules/types.js';
import { applyTrips } from './service/apply-trips.js';
import { deadLetter } from './service/dead-letter.js';
import { evaluateMarkersForEvents } from '../safer-gambling/index.js';

/** Events claimed per transaction. */
export const BATCH_SIZE = 200;
/** The spec's deadline: each event evaluated within 5 minutes of its acknowledgement. */
export const EVALUATION_DEADLINE_MS = 300_000;
/**
 * What paced evaluation aims at (ADR 0019): the deadline less a minute of margin, for a worker restart, a slow
 * batch or a queue that grows faster than the samples show.
 */
export const EVALUATION_PACED_WITHIN_MS = 240_000;
/** The queue is counted up to this many events: past it, pacing runs at the rate of this many, which is sooner. */
export const BACKLOG_COUNT_CAP = 20_000;
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
  /** Its money moved (metadata.status succeeded): rules that count only such money run for it. */
  succeeded: boolean;
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
 * for the event types the catalogue names (evaluatedOn); R-004 is scheduled by evaluateEvent and decided when its
 * window closes.
 */
const evaluatesOn = (code: RuleCode, type: AmlEvent['event_type']) =>
  (AML_RULES[code] as AmlRule).evaluatedOn.includes(type);

function eventChecks(shape: EventShape, e: EventPoint): Check[] {
  const p: HistoryPoint = { tenantId: e.tenantId, userId: e.userId, at: e.at };
  const { type } = shape;
  // A rule that counts only money that moved has nothing to add for a declined or pending event (the catalogue).
  const runs = (code: RuleCode) =>
    evaluatesOn(code, type) && (AML_RULES[code].counts === 'attempts' || shape.succeeded);
  const checks: Check[] = [];
  if (runs('R-002')) checks.push(velocity(p));
  if (runs('R-003')) checks.push(structuring(p));
  if (runs('R-005') && (type === 'deposit' || type === 'withdrawal')) {
    const leg = { type, transactionId: e.transactionId, usdCents: e.usdCents, lookAhead: true };
    checks.push(roundTripping(p, leg));
  }
  if (runs('R-006') && shape.fingerprint) {
    const { tenantId, userId, fingerprint, transactionId, at } = e;
    checks.push(multiAccount({ tenantId, userId, fingerprint, transactionId, at }));
  }
  if (runs('R-007') && shape.session) checks.push(geographicAnomaly(p, e.sessionId));
  if (runs('R-008')) checks.push(dormantReactivation(p));
  if (runs('R-009')) checks.push(aggregateThreshold(p));
  return checks;
}

/** One compiled statement per event shape, made when the first event of that shape is evaluated. */
const checksByShape = new Map<string, ReturnType<typeof precompiledChecks<typeof EVENT_POINT>>>();

function shapeOf(event: AmlEvent): EventShape {
  const session = event.metadata.session_id;
  return {
    type: event.event_type,
    fingerprint: event.fingerprint !== null,
    // Only R-007 reads the session; a session on another event type must not make a shape of its own.
    session: typeof session === 'string' && evaluatesOn('R-007', event.event_type),
    succeeded: event.status === 'succeeded',
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
    const key = `${shape.type}/${shape.fingerprint}/${shape.session}/${shape.succeeded}`;
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

/** Records an evaluated event's findings: adds them to the user's case, or opens one. */
async function recordFindings(
  platform: Platform,
  tx: Transaction<DB>,
  event: AmlEvent,
  trips: Trip[],
  now: Date,
) {
  if (trips.length > 0) await applyTrips(tx, platform, event.tenant_id, trips, now);
}

/**
 * One batch of the evaluation queue, in one transaction: take up to `limit` events off the queue (SKIP LOCKED, so
 * several processes share the queue and none evaluates an event twice), record findings, commit. A crash before
 * the commit leaves the batch queued for the next pass. Returns how many were evaluated; `claimed` receives the
 * events as soon as they are taken.
 */
async function evaluateBatch(platform: Platform, limit: number, claimed: AmlEvent[] = []): Promise<number> {
  return withTransaction(systemContext(platform), async (tx) => {
    const events = await dequeueEvents(tx, limit);
    claimed.push(...events);
    if (events.length === 0) return 0;
    const now = platform.clock.now();
    const trips = await evaluateEvents(tx, events);
    for (const [i, event] of events.entries()) await recordFindings(platform, tx, event, trips[i]!, now);
    // The safer-gambling markers read the same events, in the same transaction: no second queue.
    await evaluateMarkersForEvents(tx, platform, events, now);
    return events.length;
  });
}

/** How far behind evaluation is: the oldest queued event's time and how many wait (up to BACKLOG_COUNT_CAP). */
export function evaluationQueue(db: Executor): Promise<{ waiting: number; oldestAt: Date | null }> {
  return evaluationBacklog(db, BACKLOG_COUNT_CAP);
}

const errorText = (error: unknown) => String(error instanceof Error ? error.message : error).slice(0, 1000);

/**
 * Drains up to one batch of events. A batch that fails for a reason a retry would not cure is re-run one event at a
 * time, and an event that fails alone leaves the queue for its retries (see retryLater) in the transaction that
 * takes it off, so one bad row cannot stall the queue and no event leaves it unevaluated and untracked.
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
    const claimed: AmlEvent[] = [];
    try {
      if ((await evaluateBatch(platform, 1, claimed)) === 0) break;
    } catch (error) {
      if (claimed.length === 0 || isTransient(error)) throw error;
      await retryLater(platform, claimed[0]!, error);
    }
    evaluated++;
  }
  return evaluated;
}

/**
 * Evaluation attempts after the first, as delays from the failure before each (service clock): then the event is
 * dead-lettered. A fault that a deploy or a data fix cures within the hour is retried past it.
 */
export const EVALUATION_RETRY_DELAYS_SECONDS = [60, 300, 1800] as const;
/** The first attempt (from the queue) and each retry. */
export const MAX_EVALUATION_ATTEMPTS = 1 + EVALUATION_RETRY_DELAYS_SECONDS.length;
export const EVALUATION_RETRY_JOB = 'aml.evaluation_retry';

const scheduleRetry = (tx: Executor, event: AmlEvent, attempts: number, error: unknown, now: Date) =>
  scheduleJob(tx, {
    kind: EVALUATION_RETRY_JOB,
    subjectId: event.event_id,
    tenantId: event.tenant_id,
    dueAt: new Date(now.getTime() + EVALUATION_RETRY_DELAYS_SECONDS[attempts - 1]! * 1000),
    payload: { attempts, last_error: errorText(error) },
  });

/** Takes an event that failed its first evaluation off the queue and schedules its first retry, atomically. */
async function retryLater(platform: Platform, event: AmlEvent, error: unknown): Promise<void> {
  platform.log.warn(
    { err: error, event_id: event.event_id, tenant_id: event.tenant_id },
    'aml event could not be evaluated; retrying with backoff',
  );
  await withTransaction(systemContext(platform), async (tx) => {
    // Another process may have taken it off the queue meanwhile: then that process owns its evaluation.
    if ((await dropFromQueue(tx, [event.event_id])) === 0) return;
    await scheduleRetry(tx, event, 1, error, platform.clock.now());
  });
}

/**
 * A retry of one event's evaluation, inside the scheduler's transaction. A failure rolls back to before the attempt
 * and schedules the next retry, or after the last one moves the event to the dead letters (an alert, logged at error
 * level, and compliance_aml_dead_letters_total).
 */
export async function retryEvaluation(platform: Platform, tx: Transaction<DB>, job: ScheduledJob, now: Date) {
  const event = await findEvent(tx, job.subject_id);
  if (!event) return;
  const attempts = Number((job.payload as { attempts?: unknown }).attempts ?? 0) + 1;
  await savepoint(tx, 'aml_evaluation_retry');
  try {
    const [trips] = await evaluateEvents(tx, [event]);
    await recordFindings(platform, tx, event, trips!, now);
    await evaluateMarkersForEvents(tx, platform, [event], now);
  } catch (error) {
    if (isTransient(error)) throw error;
    await rollbackToSavepoint(tx, 'aml_evaluation_retry');
    if (attempts < MAX_EVALUATION_ATTEMPTS) {
      platform.log.warn({ err: error, event_id: event.event_id, attempts }, 'aml event retry failed');
      await scheduleRetry(tx, event, attempts, error, now);
    } else {
      await deadLetter(tx, platform, { event, attempts, error: errorText(error), at: now });
    }
  }
}
