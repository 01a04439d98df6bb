import type { Transaction } from 'kysely';
import type { TenantScopedContext } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { AppError } from '../../../platform/errors.js';
import { userCurrency } from '../limits.store.js';

/** One user's limits and deposits carry one currency: the first limit or deposit recorded sets it. */
const currencyMismatch = (kept: string, sent: string) =>
  new AppError(
    'currency_mismatch',
    `This user's limits and deposits are kept in ${kept}; ${sent} cannot be mixed with them`,
  );

/** A request in another currency than the one the user's limits and deposits are kept in (none yet: any) is 422. */
export function keptCurrencyRefusal(kept: string | null | undefined, sent: string): AppError | undefined {
  return kept && kept !== sent ? currencyMismatch(kept, sent) : undefined;
}

export function assertKeptCurrency(kept: string | null | undefined, sent: string): void {
  const refusal = keptCurrencyRefusal(kept, sent);
  if (refusal) throw refusal;
}

/** The caller holds the user lock, so no other currency can be recorded between this read and its write. */
export async function assertUserCurrency(
  tx: Transaction<DB>,
  tenantId: string,
  userId: string,
  currency: string,
): Promise<void> {
  assertKeptCurrency(await userCurrency(tx, tenantId, userId), currency);
}

/** The currency a user's limits and deposits are kept in; null while they have none. */
export async function keptCurrency(ctx: TenantScopedContext, userId: string): Promise<string | null> {
  return (await userCurrency(ctx.db, ctx.tenantId, userId)) ?? null;
}
