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
/** Codes sent to one email (canonical form) in any hour, across sessions and tenants. */
export const CODES_PER_EMAIL_PER_HOUR = 5;

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
