import { sql } from 'kysely';
import type { Executor } from './db/database.js';
import type { FxRate } from './fx.tables.js';

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

/** usdCentsSql read alone: null when the currency has no rate. */
export async function selectUsdCents(
  db: Executor,
  amountCents: number,
  currency: string,
  scale: number,
): Promise<number | null> {
  const result = await sql<{ usd_cents: number | null }>`
    select ${usdCentsSql(amountCents, currency, scale)} as usd_cents`.execute(db);
  return result.rows[0]!.usd_cents;
}

/** The largest amount in minor units worth at most `usdCents`; undefined when the currency has no rate. */
export async function selectAmountFloorOfUsdCents(
  db: Executor,
  usdCents: number,
  currency: string,
  scale: number,
): Promise<number | undefined> {
  const result = await sql<{ amount_cents: number }>`
    select floor(${usdCents}::numeric * ${scale}::numeric / (100 * usd_per_unit))::bigint as amount_cents
    from fx_rates where currency = ${currency}`.execute(db);
  return result.rows[0]?.amount_cents;
}

export async function fxRateExists(db: Executor, currency: string): Promise<boolean> {
  const row = await db
    .selectFrom('fx_rates')
    .select('currency')
    .where('currency', '=', currency)
    .executeTakeFirst();
  return row !== undefined;
}

export function selectFxRates(db: Executor): Promise<FxRate[]> {
  return db.selectFrom('fx_rates').selectAll().orderBy('currency').execute();
}

export function upsertFxRate(db: Executor, currency: string, usdPerUnit: number, now: Date): Promise<FxRate> {
  return db
    .insertInto('fx_rates')
    .values({ currency, usd_per_unit: usdPerUnit, updated_at: now })
    .onConflict((oc) => oc.column('currency').doUpdateSet({ usd_per_unit: usdPerUnit, updated_at: now }))
    .returningAll()
    .executeTakeFirstOrThrow();
}
