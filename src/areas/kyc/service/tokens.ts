import { randomBytes } from 'node:crypto';
import { sha256 } from '../../../platform/digest.js';
import { VENDOR_TOKEN_TTL_SECONDS } from '../kyc.rules.js';

export const hashToken = sha256;

/** A fresh vendor access token: shown once, stored only as its SHA-256 hash, never logged. */
export function issueToken(now: Date) {
  const token = `kyc_vt_${randomBytes(32).toString('base64url')}`;
  return {
    token,
    vendor_token_hash: hashToken(token),
    vendor_token_expires_at: new Date(now.getTime() + VENDOR_TOKEN_TTL_SECONDS * 1000),
  };
}
