import type { Selectable } from 'kysely';
import type { Timestamp } from './db/platform-tables.js';

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
