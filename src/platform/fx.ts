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

/** Decimals of the currency's minor unit (2 for USD and EUR, 0 for JPY, 3 for BHD), as formatMoney reads them. */
export function currencyDecimals(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    return 2;
  }
}

/**
 * Converts minor units of `currency` to USD cents, rounding half away from zero to whole cents. The arithmetic
 * is PostgreSQL numeric (exact decimals), never floating point. Throws the caller's error when the currency has
 * no rate (each area answers with its own code).
 */
export async function toUsdCents(
  db: Executor,
  amountCents: number,
  currency: string,
  missing: (currency: string) => AppError,
): Promise<number> {
  if (currency === BASE_CURRENCY) return amountCents;
  const scale = 10 ** currencyDecimals(currency);
  const result = await sql<{ usd_cents: number }>`
    select round(${amountCents}::numeric * usd_per_unit * 100 / ${scale}::numeric)::bigint as usd_cents
    from fx_rates where currency = ${currency}`.execute(db);
  const row = result.rows[0];
  if (!row) throw missing(currency);
  return Number(row.usd_cents);
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
  const scale = 10 ** currencyDecimals(currency);
  const result = await sql<{ amount_cents: number }>`
    select floor(${usdCents}::numeric * ${scale}::numeric / (100 * usd_per_unit))::bigint as amount_cents
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
