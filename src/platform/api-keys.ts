import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Environment } from './db/platform-tables.js';

const ENV_PREFIX: Record<Environment, string> = { sandbox: 'svc_sk_test_', live: 'svc_sk_live_' };
/** 12-character environment prefix, then 32 URL-safe base64 characters (24 random bytes). */
const KEY_PATTERN = /^svc_sk_(test|live)_[A-Za-z0-9_-]{32}$/;
/** How much of a key identifies it in logs and the back office: the prefix plus 8 of 32 secret characters. */
const VISIBLE_LENGTH = 20;

export interface IssuedKey {
  apiKey: string;
  keyPrefix: string;
  keyHash: string;
}

export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

export function issueApiKey(environment: Environment): IssuedKey {
  const apiKey = ENV_PREFIX[environment] + randomBytes(24).toString('base64url');
  return { apiKey, keyPrefix: apiKey.slice(0, VISIBLE_LENGTH), keyHash: hashApiKey(apiKey) };
}

export function isWellFormedApiKey(candidate: string): boolean {
  return KEY_PATTERN.test(candidate);
}

export function keyEnvironment(apiKey: string): Environment {
  return apiKey.startsWith(ENV_PREFIX.live) ? 'live' : 'sandbox';
}

/** Something shaped like one of our keys, of any length: the environment prefix, then URL-safe base64. */
const KEY_LOOKALIKE = /^svc_sk_(test|live)_[A-Za-z0-9_-]*$/;
const ENV_PREFIX_LENGTH = 12;
/** Of a presented key, the logs show the environment prefix and at most this many of its secret characters. */
const LOGGED_SECRET_CHARACTERS = 4;

/**
 * What the security and audit logs record of a failed Authorization header. A key of ours (`Bearer svc_sk_…`, or
 * the bare key): its 12-character environment prefix and at most 4 more characters (fewer of a short one, never
 * half its secret part). Anything else (a Basic credential, a back-office token sent to the tenant API, random
 * text) only by its kind and length, never a character of it.
 */
export function describeCredential(header: string): string {
  const parts = /^(\S+)\s+(.*)$/s.exec(header.trim());
  const scheme = parts ? parts[1]!.toLowerCase() : undefined;
  const credential = parts ? parts[2]! : header.trim();
  if ((scheme === undefined || scheme === 'bearer') && KEY_LOOKALIKE.test(credential)) {
    const secretLength = credential.length - ENV_PREFIX_LENGTH;
    const shown = Math.min(LOGGED_SECRET_CHARACTERS, Math.floor(secretLength / 2));
    return credential.slice(0, ENV_PREFIX_LENGTH + shown);
  }
  const kind =
    scheme === 'bearer' ? 'bearer_token' : scheme === 'basic' ? 'basic_credential' : 'other_credential';
  return `${kind}(len=${credential.length})`;
}

export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A webhook signing secret in the Standard Webhooks form: whsec_ and 32 random bytes in base64. */
export function issueSigningSecret(): string {
  return 'whsec_' + randomBytes(32).toString('base64');
}

/** A back-office token: 32 random bytes, URL-safe. */
export function issueBackofficeToken(): string {
  return 'bo_' + randomBytes(32).toString('base64url');
}
