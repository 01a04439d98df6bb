import { lockSubject } from '../../platform/db/subject-lock.js';
import { sql, type Insertable, type RawBuilder } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { precompiled, type Param } from '../../platform/db/precompiled.js';
import type { RuleCode } from './aml.rules.js';
import {
  AWAITING_REVIEW_STATUSES,
  OPEN_CASE_STATUSES,
  type AmlCase,
  type AmlCaseStatus,
  type AmlCasesTable,
  type AmlEvent,
} from './aml.tables.js';
import type { Trip } from './rules/types.js';

/** Plain queries over the AML tables; every tenant-owned read filters by tenant. */

export function findEventByTransaction(db: Executor, tenantId: string, transactionId: string) {
  return db
    .selectFrom('aml_events')
    .select(['event_id', 'received_at', 'request_hash', 'status'])
    .where('tenant_id', '=', tenantId)
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst();
}

/**
 * Records the outcome of a pending event (succeeded or failed) and queues it for evaluation again, in one statement;
 * undefined when the event is no longer pending (a concurrent report settled it first).
 */
export async function settlePendingEvent(
  db: Executor,
  eventId: string,
  status: 'succeeded' | 'failed',
  at: Date,
): Promise<{ event_id: string } | undefined> {
  return db
    .with('settled', (qb) =>
      qb
        .updateTable('aml_events')
        .set({ status })
        .where('event_id', '=', eventId)
        .where('status', '=', 'pending')
        .returning('event_id'),
    )
    .with('queued', (qb) =>
      qb
        .insertInto('aml_evaluation_queue')
        .columns(['event_id', 'received_at'])
        .expression((eb) =>
          eb.selectFrom('settled').select(['event_id', sql<Date>`${at}::timestamptz`.as('received_at')]),
        ),
    )
    .selectFrom('settled')
    .select('event_id')
    .executeTakeFirst();
}

/**
 * Takes the oldest events off the evaluation queue and returns them, oldest first. The queue rows are locked
 * (other processes skip them) and deleted in the caller's transaction: they are back in the queue if it rolls
 * back, and gone for good when it commits.
 */
const dequeueStatement = precompiled((db, param: Param<{ limit: number }>) =>
  db
    .with('taken', (qb) =>
      qb
        .deleteFrom('aml_evaluation_queue')
        .where(
          sql<string>`ctid`,
          '=',
          sql<string>`any(array(select ctid from aml_evaluation_queue order by received_at limit ${param('limit')}
            for update skip locked))`,
        )
        .returning('event_id'),
    )
    .selectFrom('aml_events')
    .innerJoin('taken', 'taken.event_id', 'aml_events.event_id')
    .selectAll('aml_events')
    .orderBy('aml_events.received_at')
    .orderBy('aml_events.event_id'),
);

export function dequeueEvents(db: Executor, limit: number): Promise<AmlEvent[]> {
  return dequeueStatement.execute(db, { limit });
}

/** Takes events off the evaluation queue in the caller's transaction, which schedules their retries (see aml.evaluator.ts). */
export async function dropFromQueue(db: Executor, eventIds: string[]): Promise<number> {
  if (eventIds.length === 0) return 0;
  const result = await db
    .deleteFrom('aml_evaluation_queue')
    .where('event_id', 'in', eventIds)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function findEvent(db: Executor, eventId: string): Promise<AmlEvent | undefined> {
  return db.selectFrom('aml_events').selectAll().where('event_id', '=', eventId).executeTakeFirst();
}

export function eventsByTransaction(
  db: Executor,
  tenantId: string,
  transactionIds: string[],
): Promise<AmlEvent[]> {
  if (transactionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('aml_events')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('transaction_id', 'in', transactionIds)
    .orderBy('occurred_at')
    .execute();
}

export async function tenantExists(db: Executor, tenantId: string): Promise<boolean> {
  const found = await db
    .selectFrom('tenants')
    .select('tenant_id')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return found !== undefined;
}

/** The R-009 window the tenant has set, if any. */
export async function r009WindowSetting(db: Executor, tenantId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('aml_settings')
    .select('r009_window_seconds')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return row?.r009_window_seconds;
}

export async function saveR009Window(
  db: Executor,
  tenantId: string,
  seconds: number,
  at: Date,
): Promise<void> {
  await db
    .insertInto('aml_settings')
    .values({ tenant_id: tenantId, r009_window_seconds: seconds, updated_at: at })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ r009_window_seconds: seconds, updated_at: at }))
    .execute();
}

/** Serialises case changes of one user (async evaluation, jobs and screens may touch them at once). */
export async function lockUserCases(db: Executor, tenantId: string, userId: string): Promise<void> {
  await lockSubject(db, 'aml', tenantId, userId);
}

export function findOpenAsyncCase(
  db: Executor,
  tenantId: string,
  userId: string,
): Promise<AmlCase | undefined> {
  return db
    .selectFrom('aml_cases')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('source', '=', 'async')
    .where('status', 'in', OPEN_CASE_STATUSES)
    .executeTakeFirst();
}

/**
 * Records a trip unless the same pattern was reported already. A window rule (cooldown) may trip again once its
 * window has passed since the last trip, in event time. Returns whether the trip is new.
 */
export async function claimTrip(
  db: Executor,
  tenantId: string,
  trip: Trip,
  caseId: string,
): Promise<boolean> {
  const row = await db
    .insertInto('aml_rule_trips')
    .values({
      tenant_id: tenantId,
      user_id: trip.userId,
      rule_code: trip.rule,
      pattern_key: trip.patternKey,
      case_id: caseId,
      tripped_at: trip.at,
    })
    .onConflict((oc) => {
      const target = oc.columns(['tenant_id', 'user_id', 'rule_code', 'pattern_key']);
      if (trip.cooldownSeconds === undefined) return target.doNothing();
      return target
        .doUpdateSet({ case_id: caseId, tripped_at: trip.at })
        .where(
          sql<boolean>`aml_rule_trips.tripped_at + make_interval(secs => ${trip.cooldownSeconds}) <= ${trip.at}`,
        );
    })
    .returning('rule_code')
    .executeTakeFirst();
  return row !== undefined;
}

type NewCase = Omit<Insertable<AmlCasesTable>, 'rules_triggered' | 'transaction_ids' | 'context'> & {
  rules_triggered: RuleCode[];
  transaction_ids: string[];
  context: unknown[];
};

const jsonColumns = (row: Pick<NewCase, 'rules_triggered' | 'transaction_ids' | 'context'>) => ({
  rules_triggered: JSON.stringify(row.rules_triggered),
  transaction_ids: JSON.stringify(row.transaction_ids),
  context: JSON.stringify(row.context),
});

export function insertCase(db: Executor, row: NewCase): Promise<AmlCase> {
  return db
    .insertInto('aml_cases')
    .values({ ...row, ...jsonColumns(row) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateCaseFindings(
  db: Executor,
  caseId: string,
  row: Pick<NewCase, 'rules_triggered' | 'transaction_ids' | 'context' | 'risk_score' | 'updated_at'>,
): Promise<AmlCase> {
  return db
    .updateTable('aml_cases')
    .set({ ...jsonColumns(row), risk_score: row.risk_score, updated_at: row.updated_at })
    .where('case_id', '=', caseId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function setCaseStatus(
  db: Executor,
  caseId: string,
  change: { status: AmlCaseStatus; reviewer: string; reason: string; at: Date; reviewedAt: Date | null },
): Promise<AmlCase> {
  return db
    .updateTable('aml_cases')
    .set({
      status: change.status,
      reviewer: change.reviewer,
      decision_reason: change.reason,
      decided_at: change.at,
      updated_at: change.at,
      reviewed_at: change.reviewedAt,
    })
    .where('case_id', '=', caseId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findCase(db: Executor, caseId: string, forUpdate = false): Promise<AmlCase | undefined> {
  const query = db.selectFrom('aml_cases').selectAll().where('case_id', '=', caseId);
  return (forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

export function casesOfUser(db: Executor, tenantId: string, userId: string): Promise<AmlCase[]> {
  return db
    .selectFrom('aml_cases')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('opened_at', 'desc')
    .orderBy('case_id', 'desc')
    .execute();
}

/**
 * Keyset pagination on (sort key, id): the rows after `after`, the (key, id) of a page's last row. The key may be
 * an expression, such as a subquery reading it from the row an id names.
 */
export const keysetAfter = (
  columns: readonly [string, string],
  after: readonly [RawBuilder<unknown>, string],
) => sql<boolean>`(${sql.join(columns.map((column) => sql.ref(column)))}) > (${after[0]}, ${after[1]})`;

/**
 * Cases by due time, oldest first, then by case id; `after` is the (due_at, case_id) of the last row of the previous
 * page (keyset on (due_at, case_id): aml_cases_due, aml_cases_tenant_due, aml_cases_status_due). overdueAt: only
 * cases awaiting review whose due time is at or before it.
 */
export function listCases(
  db: Executor,
  filter: {
    status?: AmlCaseStatus | undefined;
    tenantId?: string | undefined;
    userId?: string | undefined;
    overdueAt?: Date | undefined;
    after?: { dueAt: Date; caseId: string } | undefined;
    limit: number;
  },
): Promise<AmlCase[]> {
  let query = db.selectFrom('aml_cases').selectAll();
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.tenantId) query = query.where('tenant_id', '=', filter.tenantId);
  if (filter.userId) query = query.where('user_id', '=', filter.userId);
  if (filter.overdueAt) {
    query = query.where('status', 'in', AWAITING_REVIEW_STATUSES).where('due_at', '<=', filter.overdueAt);
  }
  if (filter.after) {
    const { dueAt, caseId } = filter.after;
    query = query.where(
      keysetAfter(['due_at', 'case_id'], [sql`${dueAt.toISOString()}::timestamptz`, caseId]),
    );
  }
  return query.orderBy('due_at').orderBy('case_id').limit(filter.limit).execute();
}

export function findScreen(db: Executor, tenantId: string, withdrawalId: string) {
  return db
    .selectFrom('aml_screens')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('withdrawal_id', '=', withdrawalId)
    .executeTakeFirst();
}
