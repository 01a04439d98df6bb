import type { Platform, TenantContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { insertOnce, requestFingerprint } from '../../platform/idempotency.js';
import { formatMoney } from '../../platform/money.js';
import { emitEvent } from '../../platform/outbox.js';
import { assertUserCurrency } from './limits.service.js';
import type { CheckRequest, CommitRequest } from './limits.schemas.js';
import { windowStates, type WindowState } from './limits.store.js';
import type { Deposit } from './limits.tables.js';

const WINDOW_WORDS: Record<string, string> = {
  limit_daily: 'daily',
  limit_weekly: 'weekly',
  limit_monthly: 'monthly',
};

/** A binding limit is the breached one that frees up last; one the amount can never fit under binds most. */
const freesAt = (w: WindowState) => w.fits_at?.getTime() ?? Infinity;

/**
 * The pre-deposit gate: the amount must fit under every limit in force, each over its rolling window ending
 * now; partial deposits are never allowed. The allowed path is one database statement.
 */
export async function checkDeposit(platform: Platform, ctx: TenantContext, input: CheckRequest) {
  const now = platform.clock.now();
  const windows = await windowStates(platform.db, {
    tenantId: ctx.tenant.tenant_id,
    userId: input.user_id,
    amountCents: input.amount_cents,
    now,
  });
  const currency = windows[0]?.currency;
  if (currency && currency !== input.currency) {
    throw new AppError(
      'currency_mismatch',
      422,
      `This user's limits are kept in ${currency}, not ${input.currency}`,
    );
  }

  const breached = windows.filter((w) => w.spent_cents + input.amount_cents > w.limit_cents);
  if (breached.length === 0) {
    return {
      allowed: true as const,
      amount_cents: input.amount_cents,
      would_remain_cents:
        windows.length > 0
          ? Math.min(...windows.map((w) => w.limit_cents - w.spent_cents - input.amount_cents))
          : null,
      active_limits: windows.map((w) => w.limit_type),
    };
  }

  const binding = breached.reduce((a, b) => (freesAt(b) > freesAt(a) ? b : a));
  const maxAllowedNow = Math.max(0, Math.min(...windows.map((w) => w.limit_cents - w.spent_cents)));
  // When the amount can never fit the limit, the next reset is when the window's spend next falls.
  const nextResetAt = binding.fits_at ?? binding.oldest_leaves_at ?? now;
  const money = (cents: number) => formatMoney(cents, input.currency);
  const words = WINDOW_WORDS[binding.limit_type];
  const userMessage =
    binding.fits_at === null
      ? `This deposit of ${money(input.amount_cents)} is more than your ${words} deposit limit of ${money(binding.limit_cents)}. ` +
        `You can deposit up to ${money(maxAllowedNow)} now.`
      : `This deposit of ${money(input.amount_cents)} would exceed your ${words} deposit limit of ${money(binding.limit_cents)}. ` +
        `You can deposit up to ${money(maxAllowedNow)} now, or this amount from ${nextResetAt.toISOString().slice(0, 16).replace('T', ' ')} UTC.`;

  const rejected = {
    allowed: false as const,
    reason: 'exceeds_limit' as const,
    breached_limit_type: binding.limit_type,
    limit_amount_cents: binding.limit_cents,
    already_spent_cents: binding.spent_cents,
    max_allowed_now_cents: maxAllowedNow,
    next_reset_at: nextResetAt,
    user_message: userMessage,
  };
  await platform.db.transaction().execute((tx) =>
    emitEvent(tx, {
      tenantIds: ctx.tenant.tenant_id,
      event: 'limit.breach_attempt',
      data: {
        user_id: input.user_id,
        amount_cents: input.amount_cents,
        currency: input.currency,
        breached_limit_type: rejected.breached_limit_type,
        limit_amount_cents: rejected.limit_amount_cents,
        already_spent_cents: rejected.already_spent_cents,
        max_allowed_now_cents: rejected.max_allowed_now_cents,
        next_reset_at: nextResetAt.toISOString(),
      },
      at: now,
    }),
  );
  return rejected;
}

/** Records a deposit that went through: the spend the windows sum. Idempotent on (tenant, transaction_id). */
export async function commitDeposit(
  platform: Platform,
  ctx: TenantContext,
  input: CommitRequest,
): Promise<{ deposit: Deposit; created: boolean }> {
  return platform.db.transaction().execute(async (tx) => {
    await assertUserCurrency(tx, ctx, input.user_id, input.currency);
    const result = await insertOnce<Deposit>(tx, {
      table: 'deposits',
      key: ['tenant_id', 'transaction_id'],
      values: {
        tenant_id: ctx.tenant.tenant_id,
        transaction_id: input.transaction_id,
        user_id: input.user_id,
        amount_cents: input.amount_cents,
        currency: input.currency,
        committed_at: new Date(input.committed_at),
        recorded_at: platform.clock.now(),
        request_hash: requestFingerprint({
          user_id: input.user_id,
          amount_cents: input.amount_cents,
          currency: input.currency,
          committed_at: new Date(input.committed_at).toISOString(),
        }),
      },
      conflict: () =>
        new AppError(
          'duplicate_transaction',
          409,
          `Transaction ${input.transaction_id} was committed with different details`,
        ),
    });
    return {
      deposit: { ...result.row, amount_cents: Number(result.row.amount_cents) },
      created: result.created,
    };
  });
}
