import type { Transaction } from 'kysely';
import type { TenantContext } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { AppError } from '../../../platform/errors.js';
import { requestFingerprint } from '../../../platform/idempotency.js';
import { withTransaction } from '../../../platform/service-context.js';
import { assertUserCurrency } from './currency.js';
import type { ReleaseRequest } from '../limits.schemas.js';
import {
  depositCommitted,
  dropHold,
  findRelease,
  insertRelease,
  lockUser,
  oldestLiveHold,
  userCurrency,
} from '../limits.store.js';
import type { LimitRelease } from '../limits.tables.js';

export interface FailedDeposit {
  userId: string;
  transactionId: string;
  amountCents: number;
  currency: string;
}

export type ReleaseOutcome =
  /** Recorded now; `release.reservation_id` is the hold it freed, null when none was live. */
  | { kind: 'released'; release: LimitRelease }
  /** The same release again: the original. */
  | { kind: 'repeated'; release: LimitRelease }
  /** This transaction_id was released with other details. */
  | { kind: 'conflict'; release: LimitRelease }
  /** This transaction_id was committed as a deposit: it went through, so nothing is released. */
  | { kind: 'committed' };

/**
 * Frees the hold of a deposit that failed or was abandoned: the user's oldest live hold of the same amount (the
 * check carries no transaction reference). Idempotent on (tenant, transaction_id), recorded in limit_releases: a
 * repeat frees nothing more, and a later commit of the same transaction consumes no other hold. Never throws for
 * what it is told: the AML area reaches it (through releaseFailedDeposit) for a deposit event with
 * `metadata.status: "failed"`; a currency other than the user's frees nothing (holds are in the user's currency).
 */
export async function releaseReservation(
  tx: Transaction<DB>,
  tenantId: string,
  deposit: FailedDeposit,
  now: Date,
): Promise<ReleaseOutcome> {
  await lockUser(tx, tenantId, deposit.userId);
  const requestHash = requestFingerprint({
    user_id: deposit.userId,
    amount_cents: deposit.amountCents,
    currency: deposit.currency,
  });
  const existing = await findRelease(tx, tenantId, deposit.transactionId);
  if (existing) {
    return { kind: existing.request_hash === requestHash ? 'repeated' : 'conflict', release: existing };
  }
  if (await depositCommitted(tx, tenantId, deposit.transactionId)) return { kind: 'committed' };

  const currency = await userCurrency(tx, tenantId, deposit.userId);
  const holdId =
    currency === deposit.currency
      ? await oldestLiveHold(tx, tenantId, deposit.userId, deposit.amountCents, now)
      : undefined;
  if (holdId) await dropHold(tx, tenantId, deposit.userId, holdId);
  // The user lock serialises releases of one user, and the row is keyed by (tenant, transaction_id): no race.
  const release = await insertRelease(tx, {
    tenant_id: tenantId,
    transaction_id: deposit.transactionId,
    user_id: deposit.userId,
    amount_cents: deposit.amountCents,
    currency: deposit.currency,
    reservation_id: holdId ?? null,
    released_at: now,
    request_hash: requestHash,
  });
  return { kind: 'released', release };
}

/**
 * releaseReservation in the context's transaction, or one of its own: the AML area calls it once a deposit event
 * with `metadata.status: "failed"` is stored (fields as the AML event carries them).
 */
export function releaseFailedDeposit(
  ctx: TenantContext,
  deposit: { user_id: string; transaction_id: string; amount_cents: number; currency: string },
): Promise<ReleaseOutcome> {
  return withTransaction(ctx, (tx, ctx) =>
    releaseReservation(
      tx,
      ctx.tenant.tenant_id,
      {
        userId: deposit.user_id,
        transactionId: deposit.transaction_id,
        amountCents: deposit.amount_cents,
        currency: deposit.currency,
      },
      ctx.clock.now(),
    ),
  );
}

/** The release as the API returns it. */
export const toReleaseRecord = (release: LimitRelease) => ({
  transaction_id: release.transaction_id,
  user_id: release.user_id,
  amount_cents: Number(release.amount_cents),
  currency: release.currency,
  reservation_released: release.reservation_id !== null,
  released_at: release.released_at.toISOString(),
});

/** `POST /v1/limits/release`: 201 recorded, 200 the same again; 409 for other details or a committed deposit. */
export async function releaseDeposit(
  ctx: TenantContext,
  input: ReleaseRequest,
): Promise<{ release: LimitRelease; created: boolean }> {
  const tenantId = ctx.tenant.tenant_id;
  return withTransaction(ctx, async (tx, ctx) => {
    await lockUser(tx, tenantId, input.user_id);
    await assertUserCurrency(tx, tenantId, input.user_id, input.currency);
    const outcome = await releaseReservation(
      tx,
      tenantId,
      {
        userId: input.user_id,
        transactionId: input.transaction_id,
        amountCents: input.amount_cents,
        currency: input.currency,
      },
      ctx.clock.now(),
    );
    switch (outcome.kind) {
      case 'released':
        return { release: outcome.release, created: true };
      case 'repeated':
        return { release: outcome.release, created: false };
      case 'conflict':
        throw new AppError(
          'duplicate_transaction',
          `Transaction ${input.transaction_id} was released with different details`,
        );
      case 'committed':
        throw new AppError(
          'duplicate_transaction',
          `Transaction ${input.transaction_id} was committed as a deposit; a committed deposit is not released`,
        );
    }
  });
}
