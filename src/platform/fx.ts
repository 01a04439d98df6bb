import { sql, type Selectable } from 'kysely';
import type { Executor } from './db/database.js';
import type { Timestamp } from './db/platform-tables.js';
import type { AppError } from './errors.js';

/** USD value of one major unit of a currency, kept by the service's staff; USD itself is the base (always 1). */
export interface FxRatesTable {
  currency: string;
  usd_per_unit: number;
  updated_at: Timestamp | null;
}

export interface FxTables {
  fx_rates: FxRatesTable;
}

export type FxRate = Selectable<FxRatesTable>;

export const BASE_CURRENCY = 'USD';

/** Decimals by currency code: three capital letters, so a bounded set. */
const decimalsByCurrency = new Map<string, number>();

/**
 * Decimals of the currency's minor unit (2 for USD and EUR, 0 for JPY, 3 for BHD), as formatMoney reads them.
 * Kept once read: building an Intl.NumberFormat costs 15-25 µs, and every AML event needs the answer.
 */
export function currencyDecimals(currency: string): number {
  let decimals = decimalsByCurrency.get(currency);
  if (decimals === undefined) {
    try {
      decimals =
        new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
          .maximumFractionDigits ?? 2;
    } catch {
      decimals = 2;
    }
    decimalsByCurrency.set(currency, decimals);
  }
  return decimals;
}

/**
 * USD cents of `amount` minor units of `currency`, as a scalar SQL subquery over fx_rates (null when the currency
 * has no rate): rounded half away from zero to whole cents, in PostgreSQL numeric (exact decimals), never floating
 * point. `scale` is the currency's minorScale. Each argument is a value or SQL (a column of the statement). The
 * one conversion, read alone (toUsdCents) or inside another statement (an AML event's insert, a screen's history
 * read), at the rate in force when that statement runs.
 */
export function usdCentsSql(amount: unknown, currency: unknown, scale: unknown) {
  return sql<number | null>`(select round(${amount}::numeric * usd_per_unit * 100 / ${scale}::numeric)::bigint
    from fx_rates where fx_rates.currency = ${currency})`;
}

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
  const result = await sql<{ usd_cents: number | null }>`
    select ${usdCentsSql(amountCents, currency, minorScale(currency))} as usd_cents`.execute(db);
  const usdCents = result.rows[0]!.usd_cents;
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
  const row = await db
    .selectFrom('fx_rates')
    .select('currency')
    .where('currency', '=', currency)
    .executeTakeFirst();
  if (!row) throw missing(currency);
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
  const result = await sql<{ amount_cents: number }>`
    select floor(${usdCents}::numeric * ${minorScale(currency)}::numeric / (100 * usd_per_unit))::bigint as amount_cents
    from fx_rates where currency = ${currency}`.execute(db);
  const row = result.rows[0];
  if (!row) throw missing(currency);
  return Number(row.amount_cents);
}

export function listFxRates(db: Executor): Promise<FxRate[]> {
  return db.selectFrom('fx_rates').selectAll().orderBy('currency').execute();
}

/** Sets (or adds) a currency's rate; the caller has refused changes to the base currency. */
export function setFxRate(db: Executor, currency: string, usdPerUnit: number, now: Date): Promise<FxRate> {
  return db
    .insertInto('fx_rates')
    .values({ currency, usd_per_unit: usdPerUnit, updated_at: now })
    .onConflict((oc) => oc.column('currency').doUpdateSet({ usd_per_unit: usdPerUnit, updated_at: now }))
    .returningAll()
    .executeTakeFirstOrThrow();
}
