import { AML_RULES } from '../aml.rules.js';
import { check, type Check } from '../statements/checks.js';
import { windowTotals } from '../statements/history.js';
import type { HistoryPoint } from './types.js';

const { parameters, counts } = AML_RULES['R-003'];
const { min_deposits, tier_thresholds_usd_cents, band_usd_cents, window_seconds } = parameters;

/** USD bands [threshold − band, threshold + band] around each KYC tier threshold, inclusive. */
export const STRUCTURING_BANDS: readonly (readonly [number, number])[] = tier_thresholds_usd_cents.map(
  (threshold) => [threshold - band_usd_cents, threshold + band_usd_cents] as const,
);

export const nearTierThreshold = (usdCents: number) =>
  STRUCTURING_BANDS.some(([low, high]) => usdCents >= low && usdCents <= high);

/** 10 or more succeeded deposits within USD 100 of a KYC tier threshold in (T − 7 days, T]. */
export function structuring(p: HistoryPoint): Check {
  const fragment = () =>
    windowTotals(p, { seconds: window_seconds, types: ['deposit'], counts, bands: STRUCTURING_BANDS });
  return check(fragment, (near) =>
    near.count < min_deposits
      ? []
      : [
          {
            rule: 'R-003',
            userId: p.userId,
            patternKey: '',
            cooldownSeconds: window_seconds,
            at: p.at,
            transactionIds: near.transaction_ids,
            details: {
              deposits_near_threshold: near.count,
              window_seconds,
              bands_usd_cents: STRUCTURING_BANDS,
            },
          },
        ],
  );
}
