import type { TenantContext } from './service-context.js';

export type VerifiedKey = Omit<TenantContext, 'requestId'>;

/** How long a verified key is trusted without asking the database again (wall time, not the service clock). */
export const API_KEY_CACHE_TTL_MS = 2_000;

/**
 * Verified API keys by hash, kept briefly in process so that a request costs no database round trip for its
 * key. Only successes are kept: a failing key is looked up (and audited) every time. A revocation, suspension
 * or settings change made through this process clears the cache at once; one made through another process
 * takes effect here within API_KEY_CACHE_TTL_MS.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, { key: VerifiedKey; expiresAt: number }>();

  constructor(
    private readonly ttlMs = API_KEY_CACHE_TTL_MS,
    private readonly maxEntries = 10_000,
  ) {}

  get(keyHash: string): VerifiedKey | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= performance.now()) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry.key;
  }

  set(keyHash: string, key: VerifiedKey): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(keyHash, { key, expiresAt: performance.now() + this.ttlMs });
  }

  clear(): void {
    this.entries.clear();
  }
}
