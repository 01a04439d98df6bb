import { audit } from './audit.js';
import type { ServiceContext } from './context.js';
import type { Executor } from './db/database.js';
import { AppError } from './errors.js';
import { currencyDecimals } from './money.js';
import {
  fxRateExists,
  selectAmountFloorOfUsdCents,
  selectFxRates,
  selectUsdCents,
  upsertFxRate,
} from './fx.store.js';
import { withTransaction } from './service-context.js';

/** The conversion as SQL, for statements that convert inside themselves (an AML event's insert, a screen's read). */
export { usdCentsSql } from './fx.store.js';
import type { FxRate } from './fx.tables.js';

export type { FxRate, FxTables } from './fx.tables.js';

export const BASE_CURRENCY = 'USD';

/** 10 to the power of the currency's decimals: minor units per major unit. */
export const minorScale = (currency: string) => 10 ** currencyDecimals(currency);

/**
 * Converts minor units of `currency` to USD cents (see usdCentsSql). Throws the caller's error when the currency
 * has no rate (each area answers with its own code).
 */
export async function toUsdCents(
  db: Executor,
  amountCents: number,
  currency: string,
  missing: (currency: string) => AppError,
): Promise<number> {
  if (currency === BASE_CURRENCY) return amountCents;
  const usdCents = await selectUsdCents(db, amountCents, currency, minorScale(currency));
  if (usdCents === null) throw missing(currency);
  return Number(usdCents);
}

/** Per database, the currencies known to have a rate. */
const currenciesWithRate = new WeakMap<object, Set<string>>();

/**
 * Throws the caller's error unless `currency` has a rate, for a write that converts with usdCentsSql. A rate is
 * changed but never deleted, so a currency once seen with one is remembered and costs no read again; one without
 * is read every time (another process may have just added it).
 */
export async function requireFxRate(
  db: Executor,
  currency: string,
  missing: (currency: string) => AppError,
): Promise<void> {
  let known = currenciesWithRate.get(db);
  if (!known) currenciesWithRate.set(db, (known = new Set([BASE_CURRENCY])));
  if (known.has(currency)) return;
  if (!(await fxRateExists(db, currency))) throw missing(currency);
  known.add(currency);
}

/**
 * The largest amount in minor units of `currency` whose USD value does not exceed `usdCents` (rounded down, so
 * withdrawing exactly that amount stays within a USD ceiling).
 */
export async function fromUsdCentsFloor(
  db: Executor,
  usdCents: number,
  currency: string,
  missing: (currency: string) => AppError,
): Promise<number> {
  if (currency === BASE_CURRENCY) return usdCents;
  const amountCents = await selectAmountFloorOfUsdCents(db, usdCents, currency, minorScale(currency));
  if (amountCents === undefined) throw missing(currency);
  return Number(amountCents);
}

export function listFxRates(db: Executor): Promise<FxRate[]> {
  return selectFxRates(db);
}

/** Sets (or adds) a currency's rate; the caller has refused changes to the base currency. */
export function setFxRate(db: Executor, currency: string, usdPerUnit: number, now: Date): Promise<FxRate> {
  return upsertFxRate(db, currency, usdPerUnit, now);
}

/** The staff set a currency's rate (back office): the rate and its audit row commit together. */
export async function setFxRateByStaff(
  ctx: ServiceContext,
  input: { currency: string; usdPerUnit: number },
): Promise<FxRate> {
  const { currency, usdPerUnit } = input;
  // Every USD threshold is defined against USD itself: its rate is 1 by definition.
  if (currency === BASE_CURRENCY && usdPerUnit !== 1) {
    throw new AppError('invalid_request', 'USD is the base currency; its rate is always 1');
  }
  return await withTransaction(ctx, async (tx, ctx) => {
    const rate = await setFxRate(tx, currency, usdPerUnit, ctx.clock.now());
    // Every USD-denominated AML threshold moves with it: a staff decision, audited service-wide.
    await audit(tx, ctx, 'fx.rate_set', { currency, usd_per_unit: usdPerUnit });
    return rate;
  });
}
