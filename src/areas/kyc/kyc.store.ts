import { lockSubject } from '../../platform/db/subject-lock.js';
import type { Updateable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { Environment } from '../../platform/db/platform-tables.js';
import type { KycTier } from './kyc.rules.js';
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
