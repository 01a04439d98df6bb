import { sql, type Insertable, type RawBuilder } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { lockSubject } from '../../platform/db/subject-lock.js';
import type { AssigneeFilter } from '../../staff/index.js';
import type { RuleCode } from './aml.rules.js';
import {
  AWAITING_REVIEW_STATUSES,
  OPEN_CASE_STATUSES,
  type AmlCase,
  type AmlCaseStatus,
  type AmlCasesTable,
} from './aml.tables.js';
import type { Trip } from './rules/types.js';

/** Plain queries over the cases and the trips recorded on them; every tenant-owned read filters by tenant. */

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
 * Statuses as literals, never parameters: the partial index aml_cases_awaiting_due (where status in ('under_review',
 * 'held')) must be provable from a prepared statement's generic plan too.
 */
const statusLiterals = (statuses: readonly AmlCaseStatus[]) => statuses.map((s) => sql.lit(s));

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
    /** The console's filters: any of these statuses; cases a member of staff took, or cases nobody took. */
    statuses?: readonly AmlCaseStatus[] | undefined;
    assignee?: AssigneeFilter | undefined;
  },
): Promise<AmlCase[]> {
  let query = db.selectFrom('aml_cases').selectAll();
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.statuses) query = query.where('status', 'in', statusLiterals(filter.statuses));
  const assignee = filter.assignee;
  if (assignee) {
    query = query.where(({ exists, not, selectFrom }) => {
      const taken = selectFrom('case_assignments')
        .select('subject_id')
        .where('subject', '=', 'aml')
        .whereRef('subject_id', '=', 'aml_cases.case_id');
      return assignee === 'unassigned'
        ? not(exists(taken))
        : exists(taken.where('staff_id', '=', assignee.staffId));
    });
  }
  if (filter.tenantId) query = query.where('tenant_id', '=', filter.tenantId);
  if (filter.userId) query = query.where('user_id', '=', filter.userId);
  if (filter.overdueAt) {
    query = query
      .where('status', 'in', statusLiterals(AWAITING_REVIEW_STATUSES))
      .where('due_at', '<=', filter.overdueAt);
  }
  if (filter.after) {
    const { dueAt, caseId } = filter.after;
    query = query.where(
      keysetAfter(['due_at', 'case_id'], [sql`${dueAt.toISOString()}::timestamptz`, caseId]),
    );
  }
  return query.orderBy('due_at').orderBy('case_id').limit(filter.limit).execute();
}

/**
 * The cases just before and just after one in the queue order (due_at, case_id) among cases of `statuses`: a case
 * page's previous and next links, one keyset step each way.
 */
export async function neighbourCases(
  db: Executor,
  at: { dueAt: Date; caseId: string },
  statuses: readonly AmlCaseStatus[],
): Promise<{ prev: string | undefined; next: string | undefined }> {
  const key = sql`(${at.dueAt.toISOString()}::timestamptz, ${at.caseId})`;
  const base = () =>
    db.selectFrom('aml_cases').select('case_id').where('status', 'in', statusLiterals(statuses)).limit(1);
  const [prev, next] = await Promise.all([
    base()
      .where(sql<boolean>`(due_at, case_id) < ${key}`)
      .orderBy('due_at', 'desc')
      .orderBy('case_id', 'desc')
      .executeTakeFirst(),
    base()
      .where(sql<boolean>`(due_at, case_id) > ${key}`)
      .orderBy('due_at')
      .orderBy('case_id')
      .executeTakeFirst(),
  ]);
  return { prev: prev?.case_id, next: next?.case_id };
}

/** The user's latest events, newest first (aml_events_user_time): a case page's timeline. */
export function recentEventsOfUser(db: Executor, tenantId: string, userId: string, limit: number) {
  return db
    .selectFrom('aml_events')
    .select([
      'event_id',
      'event_type',
      'transaction_id',
      'amount_cents',
      'currency',
      'usd_cents',
      'payment_method',
      'status',
      'occurred_at',
    ])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('occurred_at', 'desc')
    .limit(limit)
    .execute();
}
