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

/** A loggable fragment of whatever was presented, never the whole secret. */
export function partialKeyPrefix(presented: string): string {
  return presented.slice(0, Math.min(VISIBLE_LENGTH, Math.floor(presented.length / 2)));
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
