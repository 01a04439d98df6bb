/** The KYC rules of the spec, as data: tiers by lifetime cumulative withdrawals in USD cents. */

export type KycTier = 'tier_0' | 'tier_1' | 'tier_2' | 'tier_3' | 'tier_4';

export type KycStatus =
  'not_started' | 'in_progress' | 'pending_review' | 'approved' | 'rejected' | 'expired';
export const OPEN_STATUSES: readonly KycStatus[] = ['not_started', 'in_progress', 'pending_review'];
export const isOpen = (status: KycStatus) => OPEN_STATUSES.includes(status);
/** The open statuses that wait on the player; only these are abandoned after 7 days. pending_review waits on reviewers. */
export const PLAYER_STATUSES: readonly KycStatus[] = ['not_started', 'in_progress'];
export const waitsOnPlayer = (status: KycStatus) => PLAYER_STATUSES.includes(status);

export type KycDocument =
  'email_otp' | 'phone_otp' | 'government_id' | 'selfie' | 'proof_of_address' | 'source_of_funds';

export interface TierRule {
  tier: KycTier;
  /** Highest lifetime total (USD cents) this tier covers, inclusive; null: no ceiling. */
  ceilingUsdCents: number | null;
  /** What the vendor flow collects to verify the user at this tier. */
  documents: readonly KycDocument[];
  /** Display estimate of how long verification at this tier usually takes. */
  estimatedClearTime: string;
}

/** Spec's tier table in minor units: tier_0 up to USD 200, tier_1 up to 2,000, tier_2 up to 20,000, tier_3 up to 100,000. */
export const TIERS: readonly TierRule[] = [
  { tier: 'tier_0', ceilingUsdCents: 20_000, documents: [], estimatedClearTime: 'immediate' },
  {
    tier: 'tier_1',
    ceilingUsdCents: 200_000,
    documents: ['email_otp', 'phone_otp'],
    estimatedClearTime: '15 minutes',
  },
  {
    tier: 'tier_2',
    ceilingUsdCents: 2_000_000,
    documents: ['government_id', 'selfie'],
    estimatedClearTime: '24 hours',
  },
  {
    tier: 'tier_3',
    ceilingUsdCents: 10_000_000,
    documents: ['government_id', 'selfie', 'proof_of_address'],
    estimatedClearTime: '48 hours',
  },
  {
    tier: 'tier_4',
    ceilingUsdCents: null,
    documents: ['government_id', 'selfie', 'proof_of_address', 'source_of_funds'],
    estimatedClearTime: '72 hours',
  },
];

/**
 * The KYC tier thresholds (USD cents, ascending): each tier's ceiling, above which a lifetime total needs the next
 * tier. AML's R-003 (structuring) watches deposits just under them.
 */
export const KYC_TIER_THRESHOLDS_USD_CENTS: readonly number[] = TIERS.flatMap((t) =>
  t.ceilingUsdCents === null ? [] : [t.ceilingUsdCents],
);

export const rank = (tier: KycTier): number => TIERS.findIndex((t) => t.tier === tier);
export const ruleOf = (tier: KycTier): TierRule => TIERS[rank(tier)]!;
export const higherOf = (a: KycTier, b: KycTier): KycTier => (rank(a) >= rank(b) ? a : b);

/** The tier a lifetime withdrawal total requires: the lowest whose ceiling covers it (boundaries are inclusive). */
export function tierFor(totalUsdCents: number): KycTier {
  return TIERS.find((t) => t.ceilingUsdCents === null || totalUsdCents <= t.ceilingUsdCents)!.tier;
}

/** Abandonment: a check waiting on the player with no activity for this long is expired, its withdrawal cancelled. */
export const ABANDON_AFTER_SECONDS = 7 * 86_400;

/** A check in pending_review is due for a decision this long after it entered pending_review. */
export const REVIEW_DUE_AFTER_SECONDS = 48 * 3600;

/** Lifetime of a vendor access token; a repeated start issues a fresh one. */
export const VENDOR_TOKEN_TTL_SECONDS = 3600;

/** After a rejection, verification above the verified tier can be started again only after this long (422 before). */
export const RETRY_AFTER_REJECTION_SECONDS = 86_400;
