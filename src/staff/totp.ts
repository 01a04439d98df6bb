import { Secret, TOTP } from 'otpauth';

/** RFC 6238 codes: SHA-1, 6 digits, 30-second steps, the defaults every authenticator app reads. */
const PERIOD_SECONDS = 30;
const ISSUER = 'Compliance Service';

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secret: string, label: string) {
  return new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(secret), period: PERIOD_SECONDS });
}

/** The otpauth:// URI an authenticator app enrols from. */
export function totpUri(secret: string, label: string): string {
  return totp(secret, label).toString();
}

/**
 * The time step of a valid code at `now` (one step of drift either way), or undefined. The caller refuses a step
 * at or before the last one accepted, so a code works once.
 */
export function acceptedStep(secret: string, code: string, now: Date): number | undefined {
  const timestamp = now.getTime();
  const delta = totp(secret, '').validate({ token: code.replace(/\s/g, ''), timestamp, window: 1 });
  if (delta === null) return undefined;
  return Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
}

/** The code at `at`: what a member of staff's authenticator shows (tests sign in with it). */
export function totpCode(secret: string, at: Date): string {
  return totp(secret, '').generate({ timestamp: at.getTime() });
}
