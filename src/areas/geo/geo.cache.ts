import type { Redis } from 'ioredis';
import type { Platform } from '../../platform/context.js';
import type { ResolvedLocation } from './resolver/resolver.js';
import type { ResolverKind } from './geo.tables.js';

/** How long a resolver result stands, on the service clock (the spec's "24 hours per (IP, country)"). */
export const CACHE_TTL_SECONDS = 86_400;
/** Bound of the in-process cache: the least recently used entry leaves first. */
const MEMORY_MAX_ENTRIES = 50_000;

interface CachedLocation extends ResolvedLocation {
  /** When the resolver answered, in milliseconds on the service clock. */
  resolved_at: number;
}

/**
 * Resolver results per (resolver kind, IP). Only the location is cached, never the tier: the tier is read fresh on
 * every check so that a tier change applies at once. Unresolvable addresses are never stored.
 */
export interface GeoCache {
  /** The cached location if it was resolved less than 24 hours ago by the service clock. */
  lookup(kind: ResolverKind, ip: string, now: Date): Promise<ResolvedLocation | undefined>;
  store(kind: ResolverKind, ip: string, location: ResolvedLocation, now: Date): Promise<void>;
  forget(kind: ResolverKind, ip: string): Promise<void>;
}

/** Freshness is decided on the service clock; an entry from the future (another clock's) counts as stale. */
function fresh(entry: CachedLocation | undefined, now: Date): ResolvedLocation | undefined {
  if (!entry) return undefined;
  const age = now.getTime() - entry.resolved_at;
  if (age < 0 || age >= CACHE_TTL_SECONDS * 1000) return undefined;
  return { country_code: entry.country_code, region: entry.region };
}

class MemoryGeoCache implements GeoCache {
  private readonly entries = new Map<string, CachedLocation>();

  async lookup(kind: ResolverKind, ip: string, now: Date) {
    const key = `${kind}:${ip}`;
    const entry = this.entries.get(key);
    const location = fresh(entry, now);
    this.entries.delete(key);
    // Re-inserting moves the entry to the young end of the Map's insertion order (LRU); stale ones just leave.
    if (location) this.entries.set(key, entry!);
    return location;
  }

  async store(kind: ResolverKind, ip: string, location: ResolvedLocation, now: Date) {
    const key = `${kind}:${ip}`;
    this.entries.delete(key);
    this.entries.set(key, { ...location, resolved_at: now.getTime() });
    if (this.entries.size > MEMORY_MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  async forget(kind: ResolverKind, ip: string) {
    this.entries.delete(`${kind}:${ip}`);
  }
}

/**
 * Shared by every process of a deployment. Redis expires keys after 24 hours of wall time as an upper bound on
 * memory; HIT or MISS is still decided by the stored resolve time against the service clock. A Redis failure
 * degrades to a MISS (the resolver answers), never to a failed check.
 */
class RedisGeoCache implements GeoCache {
  constructor(
    private readonly redis: Redis,
    private readonly platform: Platform,
  ) {}

  private key(kind: ResolverKind, ip: string) {
    return `compliance:geo:${kind}:${ip}`;
  }

  async lookup(kind: ResolverKind, ip: string, now: Date) {
    try {
      const raw = await this.redis.get(this.key(kind, ip));
      return fresh(raw ? (JSON.parse(raw) as CachedLocation) : undefined, now);
    } catch (error) {
      this.platform.log.warn({ err: error }, 'geo cache read failed; resolving');
      return undefined;
    }
  }

  async store(kind: ResolverKind, ip: string, location: ResolvedLocation, now: Date) {
    const entry: CachedLocation = { ...location, resolved_at: now.getTime() };
    try {
      await this.redis.set(this.key(kind, ip), JSON.stringify(entry), 'EX', CACHE_TTL_SECONDS);
    } catch (error) {
      this.platform.log.warn({ err: error }, 'geo cache write failed');
    }
  }

  async forget(kind: ResolverKind, ip: string) {
    await this.redis.del(this.key(kind, ip));
  }
}

const caches = new WeakMap<Platform, GeoCache>();

/** The cache of this service instance: in Redis when REDIS_URL is set, else in process. */
export function geoCacheFor(platform: Platform): GeoCache {
  let cache = caches.get(platform);
  if (!cache) {
    cache = platform.redis ? new RedisGeoCache(platform.redis, platform) : new MemoryGeoCache();
    caches.set(platform, cache);
  }
  return cache;
}
