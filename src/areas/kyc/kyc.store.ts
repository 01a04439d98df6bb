import { lockSubject } from '../../platform/db/subject-lock.js';
import { sql, type Updateable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { Environment } from '../../platform/db/platform-tables.js';
import type { AssigneeFilter } from '../../staff/index.js';
import type { KycStatus, KycTier } from './kyc.rules.js';
import type { KycCheck, KycChecksTable, KycUser, KycWithdrawal } from './kyc.tables.js';

/** Serialises every KYC change of one user (start, decisions, completed withdrawals) inside the transaction. */
export async function lockUser(tx: Executor, tenantId: string, userId: string): Promise<void> {
  await lockSubject(tx, 'kyc', tenantId, userId);
}

export function findUser(db: Executor, tenantId: string, userId: string): Promise<KycUser | undefined> {
  return db
    .selectFrom('kyc_users')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Sets the verified tier; the caller has checked that it is higher than the one in force (it never goes down). */
export async function setVerifiedTier(
  tx: Executor,
  tenantId: string,
  userId: string,
  tier: KycTier,
  now: Date,
) {
  await tx
    .insertInto('kyc_users')
    .values({ tenant_id: tenantId, user_id: userId, verified_tier: tier, verified_at: now, updated_at: now })
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'user_id'])
        .doUpdateSet({ verified_tier: tier, verified_at: now, updated_at: now }),
    )
    .execute();
}

/** Adds a cleared withdrawal to the user's lifetime total and returns the new total (USD cents). */
export async function addWithdrawn(
  tx: Executor,
  tenantId: string,
  userId: string,
  usdCents: number,
  now: Date,
): Promise<number> {
  const row = await tx
    .insertInto('kyc_users')
    .values({
      tenant_id: tenantId,
      user_id: userId,
      cumulative_withdrawn_usd_cents: usdCents,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'user_id']).doUpdateSet((eb) => ({
        cumulative_withdrawn_usd_cents: eb('kyc_users.cumulative_withdrawn_usd_cents', '+', usdCents),
        updated_at: now,
      })),
    )
    .returning('cumulative_withdrawn_usd_cents')
    .executeTakeFirstOrThrow();
  return Number(row.cumulative_withdrawn_usd_cents);
}

export function findCheck(db: Executor, tenantId: string, checkId: string): Promise<KycCheck | undefined> {
  return db
    .selectFrom('kyc_checks')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('kyc_check_id', '=', checkId)
    .executeTakeFirst();
}

/** A check by its id alone: the staff's review reaches checks of every tenant. */
export function findCheckById(db: Executor, checkId: string): Promise<KycCheck | undefined> {
  return db.selectFrom('kyc_checks').selectAll().where('kyc_check_id', '=', checkId).executeTakeFirst();
}

export function findCheckByTokenHash(db: Executor, tokenHash: string): Promise<KycCheck | undefined> {
  return db
    .selectFrom('kyc_checks')
    .selectAll()
    .where('vendor_token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** The user's most recent check, whatever its status. */
export function latestCheck(db: Executor, tenantId: string, userId: string): Promise<KycCheck | undefined> {
  return db
    .selectFrom('kyc_checks')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('kyc_check_id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function updateCheck(
  tx: Executor,
  checkId: string,
  patch: Omit<Updateable<KycChecksTable>, 'is_open'>,
): Promise<KycCheck> {
  return tx
    .updateTable('kyc_checks')
    .set(patch)
    .where('kyc_check_id', '=', checkId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The environment of the tenant a check belongs to (the sandbox vendor flow serves sandbox tenants only). */
export async function tenantEnvironment(db: Executor, tenantId: string): Promise<Environment> {
  const tenant = await db
    .selectFrom('tenants')
    .select('environment')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return tenant.environment;
}

/** Records the lifetime total (USD cents) a completed withdrawal brought the user to. */
export function setCumulativeAfter(
  tx: Executor,
  tenantId: string,
  withdrawalId: string,
  cumulativeUsdCents: number,
): Promise<KycWithdrawal> {
  return tx
    .updateTable('kyc_withdrawals')
    .set({ cumulative_after_usd_cents: cumulativeUsdCents })
    .where('tenant_id', '=', tenantId)
    .where('withdrawal_id', '=', withdrawalId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface ReviewQueueFilter {
  status?: KycStatus;
  tenant_id?: string;
  /** true: in pending_review at or past the due time; false: everything else. */
  overdue?: boolean;
  /** Continue after this check (the last of the previous page). */
  after?: { dueAt: Date; checkId: string };
  limit: number;
  /** The console's filter: checks a member of staff took, or checks nobody took. */
  assignee?: AssigneeFilter | undefined;
}

/**
 * Checks that reached pending_review across tenants (the staff's queue), oldest-due first, `limit` of them. The
 * queue spans tenants by design: it is the back office's, filtered by tenant only when asked.
 */
export function reviewQueue(
  db: Executor,
  filter: ReviewQueueFilter,
  now: Date,
): Promise<(KycCheck & { review_due_at: Date })[]> {
  let query = db
    .selectFrom('kyc_checks')
    .selectAll()
    .where('review_due_at', 'is not', null)
    .orderBy('review_due_at')
    .orderBy('kyc_check_id')
    .limit(filter.limit);
  // A literal, never a parameter: kyc_checks_pending_review is a partial index on it (see aml.cases.store.ts).
  if (filter.status) query = query.where('status', '=', sql.lit(filter.status));
  if (filter.tenant_id) query = query.where('tenant_id', '=', filter.tenant_id);
  if (filter.overdue === true) {
    query = query.where('status', '=', 'pending_review').where('review_due_at', '<=', now);
  } else if (filter.overdue === false) {
    query = query.where((eb) => eb.or([eb('status', '!=', 'pending_review'), eb('review_due_at', '>', now)]));
  }
  if (filter.after) {
    const { dueAt, checkId } = filter.after;
    query = query.where(
      sql<boolean>`(review_due_at, kyc_check_id) > (${dueAt.toISOString()}::timestamptz, ${checkId})`,
    );
  }
  const assignee = filter.assignee;
  if (assignee) {
    query = query.where(({ exists, not, selectFrom }) => {
      const taken = selectFrom('case_assignments')
        .select('subject_id')
        .where('subject', '=', 'kyc')
        .whereRef('subject_id', '=', 'kyc_checks.kyc_check_id');
      return assignee === 'unassigned'
        ? not(exists(taken))
        : exists(taken.where('staff_id', '=', assignee.staffId));
    });
  }
  return query.execute() as Promise<(KycCheck & { review_due_at: Date })[]>;
}

/**
 * The checks just before and just after one in the review queue's order (review_due_at, kyc_check_id) among checks
 * of `status`: a check page's previous and next links, one keyset step each way (kyc_checks_review_due).
 */
export async function neighbourChecks(
  db: Executor,
  at: { dueAt: Date; checkId: string },
  status: KycStatus,
): Promise<{ prev: string | undefined; next: string | undefined }> {
  const key = sql`(${at.dueAt.toISOString()}::timestamptz, ${at.checkId})`;
  const base = () =>
    db
      .selectFrom('kyc_checks')
      .select('kyc_check_id')
      .where('review_due_at', 'is not', null)
      .where('status', '=', sql.lit(status))
      .limit(1);
  const [prev, next] = await Promise.all([
    base()
      .where(sql<boolean>`(review_due_at, kyc_check_id) < ${key}`)
      .orderBy('review_due_at', 'desc')
      .orderBy('kyc_check_id', 'desc')
      .executeTakeFirst(),
    base()
      .where(sql<boolean>`(review_due_at, kyc_check_id) > ${key}`)
      .orderBy('review_due_at')
      .orderBy('kyc_check_id')
      .executeTakeFirst(),
  ]);
  return { prev: prev?.kyc_check_id, next: next?.kyc_check_id };
}
