/** The hosted embeds' rules, as data (docs/embeds.md). */

export const EMBED_KINDS = ['self_exclusion', 'deposit_limits'] as const;
export type EmbedKind = (typeof EMBED_KINDS)[number];

/** A session's URL works this long after the operator's server created it. */
export const SESSION_SECONDS = 15 * 60;
/** Sessions (with their codes, and the contacts they carried) are deleted this long after they expire. */
export const SESSION_RETENTION_SECONDS = 24 * 60 * 60;

/** The spec's email OTP length. */
export const CODE_DIGITS = 6;
/** A code is valid this long, and never past its session's expiry. */
export const CODE_SECONDS = 10 * 60;
/** A new code (which replaces the live one) may be asked for this long after the last. */
export const RESEND_SECONDS = 60;
/** Wrong codes after which the code is void and a new one must be asked for. */
export const MAX_WRONG_CODES = 5;
/** How many codes may go to one email (its canonical form) in any hour (docs/embeds.md#codes). */
export const CODE_LIMITS = {
  /**
   * Asked for by one tenant, across its sessions; past it, 429 too_many_codes. Per tenant, so that one operator
   * cannot use up a player's codes at another, and its 429 speaks of its own requests only.
   */
  per_tenant_per_hour: 5,
  /**
   * Mailed for all tenants together: what one mailbox can be sent. Never told: a request past it is answered as any
   * other and its code is not mailed. A player excluding themselves at several operators in one sitting (a code
   * each, the odd resend) stays under it.
   */
  service_wide_per_hour: 20,
} as const;
export const CODE_LIMIT_WINDOW_SECONDS = 60 * 60;

export type CodeLimitDecision =
  { outcome: 'refuse'; retry_after_seconds: number } | { outcome: 'issue'; mail: boolean };

/**
 * A tenant asks for a code to an email: refused by its own limit (its oldest code in the hour sets the wait), else
 * issued, and mailed unless the email has had the service-wide ceiling's codes in the hour. The tenant's own limit
 * comes first: it is told of its own requests only.
 */
export function codeLimitDecision(input: {
  /** When this tenant asked for codes to the email within the hour, mailed or not, oldest first. */
  tenantRequestedAt: Date[];
  /** Codes mailed to the email within the hour, by every tenant. */
  mailedInHour: number;
  now: Date;
}): CodeLimitDecision {
  const oldest = input.tenantRequestedAt[0];
  if (oldest && input.tenantRequestedAt.length >= CODE_LIMITS.per_tenant_per_hour) {
    const leavesAt = oldest.getTime() + CODE_LIMIT_WINDOW_SECONDS * 1000;
    return { outcome: 'refuse', retry_after_seconds: Math.ceil((leavesAt - input.now.getTime()) / 1000) };
  }
  return { outcome: 'issue', mail: input.mailedInHour < CODE_LIMITS.service_wide_per_hour };
}

/** The languages of the markets the service restricts; English is the fallback. */
export const LOCALES = ['en', 'de', 'es', 'fr', 'it', 'nl', 'sv'] as const;
export type Locale = (typeof LOCALES)[number];

/** `de-AT`, `DE`, `sv_SE` → their language if the embeds speak it, else English. */
export function localeOf(requested: string | null | undefined): Locale {
  const language = (requested ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return (LOCALES as readonly string[]).includes(language ?? '') ? (language as Locale) : 'en';
}

/** Origins an operator may register for framing: at most this many a tenant. */
export const MAX_EMBED_ORIGINS = 20;

/**
 * The reality-check intervals the limits page offers (seconds), besides the operator's default: all within the
 * tenant API's 300..7200, from often to rarely. Reminders cannot be turned off, so "never" is not one.
 */
export const REALITY_CHECK_CHOICES = [15 * 60, 30 * 60, 60 * 60, 2 * 60 * 60] as const;
