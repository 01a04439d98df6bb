import { sql } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import { evaluationQueue, AML_REVIEW_QUEUE } from '../areas/aml/index.js';
import { KYC_REVIEW_QUEUE } from '../areas/kyc/index.js';
import { SANCTIONS_REVIEW_QUEUE } from '../areas/sanctions/index.js';
import { countAwaiting } from '../platform/case-work/queue.store.js';

/**
 * The console's read models across areas: the dashboard's counts, one player's records, the audit log search.
 * Queries only, each bounded by a limit. Predicates that match a partial index are literals, not parameters: a
 * prepared statement's generic plan can use a partial index only when its predicate is in the statement's text.
 */

/** Counts stop here: a queue past it reads "10,000 or more" instead of counting every row on each page view. */
export const COUNT_CAP = 10_000;

const countOf = async (db: Executor, query: ReturnType<typeof sql>) =>
  Number((await sql<{ n: number }>`select count(*)::int as n from (${query}) q`.execute(db)).rows[0]!.n);

/**
 * Each review queue's size and how many of its cases are past their due time, and how many decisions await a second
 * approval, each at most COUNT_CAP + 1.
 */
export async function queueCounts(db: Executor, now: Date) {
  const limit = COUNT_CAP + 1;
  const [sanctions, aml, kyc, proposals] = await Promise.all([
    countAwaiting(db, SANCTIONS_REVIEW_QUEUE, now, limit),
    countAwaiting(db, AML_REVIEW_QUEUE, now, limit),
    countAwaiting(db, KYC_REVIEW_QUEUE, now, limit),
    // decision_proposals_open (proposed_at) where status = 'pending'.
    countOf(db, sql`select 1 from decision_proposals where status = 'pending' limit ${limit}`),
  ]);
  return { sanctions, aml, kyc, proposals };
}

/** Failed delivery attempts (retried or given up) since `since`, by tenant, most failures first (webhook_attempts_failed). */
export async function webhookFailuresByTenant(db: Executor, since: Date, limit: number) {
  const { rows } = await sql<{
    tenant_id: string;
    name: string;
    webhook_disabled_at: Date | null;
    failures: number;
    last_failed_at: Date;
  }>`
    select a.tenant_id, t.name, t.webhook_disabled_at, a.failures, a.last_failed_at
    from (
      select tenant_id, count(*)::int as failures, max(attempted_at) as last_failed_at
      from webhook_attempts
      where outcome <> 'delivered' and attempted_at >= ${since.toISOString()}::timestamptz
      group by tenant_id
    ) a
    join tenants t on t.tenant_id = a.tenant_id
    order by a.failures desc, a.tenant_id
    limit ${limit}`.execute(db);
  return rows;
}

/** How far behind asynchronous AML evaluation is: the oldest queued event, the queue's depth, dead letters. */
export async function amlEvaluationLag(db: Executor) {
  const limit = COUNT_CAP + 1;
  const [queue, deadLetters] = await Promise.all([
    evaluationQueue(db),
    // aml_dead_letters_pending (event_id) where redriven_at is null.
    countOf(db, sql`select 1 from aml_dead_letters where redriven_at is null limit ${limit}`),
  ]);
  return { oldestReceivedAt: queue.oldestAt, depth: Math.min(queue.waiting, limit), deadLetters };
}

// ---- one player: every query by (tenant_id, user_id), each on an index that leads with them ----

/** The register's rows an operator filed for this user, in force, expired or voided, newest first (exclusions_user). */
export function exclusionsOfUser(db: Executor, tenantId: string, userId: string) {
  return db
    .selectFrom('exclusions')
    .select([
      'exclusion_id',
      'duration',
      'is_permanent',
      'reason',
      'effective_from',
      'expires_at',
      'regulator_propagated',
      'status',
    ])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('effective_from', 'desc')
    .limit(100)
    .execute();
}

/** The user's screen (unique on tenant and user) and its cases (sanctions_cases_screen), newest first. */
export async function sanctionsOfUser(db: Executor, tenantId: string, userId: string, limit: number) {
  const screen = await db
    .selectFrom('sanctions_screens')
    .select([
      'screen_id',
      'first_name',
      'last_name',
      'date_of_birth',
      'nationality',
      'email',
      'status',
      'transactions_held',
      'match_count',
      'highest_match_score',
      'case_id',
      'vendor',
      'checked_at',
    ])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!screen) return { screen: undefined, cases: [] };
  const cases = await db
    .selectFrom('sanctions_cases')
    .select(['case_id', 'status', 'highest_match_score', 'trigger', 'opened_at', 'due_at', 'decided_at'])
    .where('screen_id', '=', screen.screen_id)
    .orderBy('opened_at', 'desc')
    .limit(limit)
    .execute();
  return { screen, cases };
}

/** The user's KYC checks, newest first (kyc_checks_user). */
export function kycChecksOfUser(db: Executor, tenantId: string, userId: string, limit: number) {
  return db
    .selectFrom('kyc_checks')
    .select([
      'kyc_check_id',
      'required_tier',
      'status',
      'withdrawal_id',
      'withdrawal_amount_cents',
      'currency',
      'created_at',
      'review_due_at',
      'decided_at',
    ])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('kyc_check_id', 'desc')
    .limit(limit)
    .execute();
}

/** The user's AML cases, newest first (aml_cases_user). */
export function amlCasesOfUser(db: Executor, tenantId: string, userId: string, limit: number) {
  return db
    .selectFrom('aml_cases')
    .select(['case_id', 'status', 'origin', 'rules_triggered', 'risk_score', 'opened_at', 'due_at'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('opened_at', 'desc')
    .orderBy('case_id', 'desc')
    .limit(limit)
    .execute();
}

/** The user's latest AML events by event time (aml_events_user_time, walked backwards). */
export function recentAmlEvents(db: Executor, tenantId: string, userId: string, limit: number) {
  return db
    .selectFrom('aml_events')
    .select([
      'event_id',
      'event_type',
      'transaction_id',
      'amount_cents',
      'currency',
      'usd_cents',
      'status',
      'occurred_at',
    ])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('occurred_at', 'desc')
    .limit(limit)
    .execute();
}

/** The envelope's data.user_id, as the proposed index events_user stores it (the expression must match). */
const eventUserId = sql<string>`(payload::jsonb -> 'data' ->> 'user_id')`;

/**
 * The tenant's latest webhook events about this user, newest first, with their delivery state: events_user indexes
 * exactly this expression of the payload.
 */
export function recentEventsOfUser(db: Executor, tenantId: string, userId: string, limit: number) {
  return db
    .selectFrom('events')
    .select(['event_id', 'event', 'created_at', 'delivery_status', 'attempt_count', 'delivered_at'])
    .where('tenant_id', '=', tenantId)
    .where(eventUserId, '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('event_id', 'desc')
    .limit(limit)
    .execute();
}

// ---- the audit log ----

export interface AuditFilter {
  actor?: string | undefined;
  tenantId?: string | undefined;
  action?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  /** Continue with entries older than this one (the last audit_id of the previous page). */
  before?: number | undefined;
  limit: number;
}

/**
 * Audit entries newest first, keyset on audit_id: by tenant on audit_log_tenant, by actor, action or time on
 * audit_log_actor, audit_log_action and audit_log_occurred_at.
 */
export function searchAudit(db: Executor, filter: AuditFilter) {
  let query = db
    .selectFrom('audit_log')
    .select(['audit_id', 'tenant_id', 'occurred_at', 'actor', 'action', 'request_id', 'details']);
  if (filter.actor) query = query.where('actor', '=', filter.actor);
  if (filter.tenantId) query = query.where('tenant_id', '=', filter.tenantId);
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.from) query = query.where('occurred_at', '>=', filter.from);
  if (filter.to) query = query.where('occurred_at', '<', filter.to);
  if (filter.before !== undefined) query = query.where('audit_id', '<', filter.before);
  return query.orderBy('audit_id', 'desc').limit(filter.limit).execute();
}
