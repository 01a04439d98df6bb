import { sql, type Insertable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { lockSubject } from '../../platform/db/subject-lock.js';
import type { RuleCode } from './aml.rules.js';
import { OPEN_CASE_STATUSES, type AmlCase, type AmlCaseStatus, type AmlCasesTable } from './aml.tables.js';
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

/** Whether the user has a case in one of these statuses (aml_cases_user): one row read at most. */
export async function hasCaseIn(
  db: Executor,
  tenantId: string,
  userId: string,
  statuses: readonly AmlCaseStatus[],
): Promise<boolean> {
  const row = await db
    .selectFrom('aml_cases')
    .select('case_id')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('status', 'in', statuses)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
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

/** The user's AML cases, newest first (aml_cases_user); all of them, or the newest `limit`. */
export function casesOfUser(
  db: Executor,
  tenantId: string,
  userId: string,
  limit?: number,
): Promise<AmlCase[]> {
  return db
    .selectFrom('aml_cases')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('opened_at', 'desc')
    .orderBy('case_id', 'desc')
    .$if(limit !== undefined, (query) => query.limit(limit!))
    .execute();
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
