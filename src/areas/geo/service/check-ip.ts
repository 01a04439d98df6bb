import type { Platform, TenantContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { databaseGroupCommit } from '../../../platform/group-commit.js';
import { geoCacheFor } from '../geo.cache.js';
import { UNLISTED_PLACE_STATUS, type CountryStatus } from '../geo.rules.js';
import { canonicalIp, resolverFor } from '../resolver/resolver.js';
import type { GeoCheckRequest, GeoResult } from '../geo.schemas.js';
import { auditChecks, type NewAuditRow } from '../statements/geo-check.js';
import type { CacheOutcome } from '../geo.tables.js';

/** What each tier answers beyond the common fields: data, one entry per tier. */
const TIER_RESULTS = {
  allowed: { status: 'status_allowed' },
  restricted: {
    status: 'status_restricted',
    restriction_reason: 'requires_local_license',
    user_message:
      'Sign-ups from your location need a review by our compliance team before you can play. We will be in touch.',
    next_action: 'queue_for_review',
  },
  blocked: {
    status: 'status_blocked',
    block_reason: 'country_blocked',
    user_message: 'We are sorry: our services are not available in your location.',
  },
} as const satisfies Record<CountryStatus, Partial<GeoResult>>;

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/**
 * Concurrent checks share one statement and one commit: it reads each one's tier and writes its audit row. Each
 * check answers once its row is stored.
 */
export const geoAuditLogGroupCommit = (db: Platform['db'], config: Platform['config']) =>
  databaseGroupCommit(config, (rows: NewAuditRow[]) => auditChecks(db, rows));

declare module '../../../platform/group-commit.js' {
  interface GroupCommits {
    geoAuditLog: ReturnType<typeof geoAuditLogGroupCommit>;
  }
}

/**
 * The signup gate: resolves the address (cached 24 hours per resolver and IP), then reads the tier fresh, in the
 * statement that audits the check, so a tier change applies at once to cached addresses. Every check, answered or
 * unresolvable, is audited. The most specific list entry decides: the region (CA-ON) before its country (CA);
 * an unlisted place is allowed.
 */
export async function checkIp(
  platform: Platform,
  ctx: TenantContext,
  input: GeoCheckRequest,
): Promise<{ result: GeoResult; cache: CacheOutcome }> {
  const ip = canonicalIp(input.ip_address);
  const resolver = resolverFor(platform.vendors, ctx.tenant);
  const now = platform.clock.now();
  const cache = geoCacheFor(platform);

  let location = await cache.lookup(resolver.kind, ip, now);
  const outcome: CacheOutcome = location ? 'HIT' : 'MISS';
  if (!location) {
    location = (await resolver.resolve(ip)) ?? undefined;
    if (location) await cache.store(resolver.kind, ip, location, now);
  }

  const auditRow = {
    tenant_id: ctx.tenant.tenant_id,
    checked_at: now,
    request_id: ctx.requestId,
    ip_address: ip,
    user_agent: input.user_agent ?? null,
    context: input.context ?? null,
    resolver: resolver.kind,
    cache: outcome,
  };
  if (!location) {
    await platform.groupCommits.geoAuditLog.submit({
      ...auditRow,
      country_code: null,
      region: null,
      status: 'status_blocked',
    });
    throw new AppError(
      'unresolvable_ip',
      `The address ${input.ip_address} cannot be placed; treat it as blocked`,
      {
        status: 'status_blocked',
      },
    );
  }

  const entry = await platform.groupCommits.geoAuditLog.submit({
    ...auditRow,
    country_code: location.country_code,
    region: location.region,
    status: null,
  });
  const status = entry.status ?? UNLISTED_PLACE_STATUS;
  const tier = TIER_RESULTS[status];
  const countryName = entry.name ?? regionNames.of(location.country_code) ?? location.country_code;
  const common = { country_code: location.country_code, country_name: countryName, checked_at: now };
  const result: GeoResult =
    status === 'allowed'
      ? { ...tier, ...common, region: location.region ?? location.country_code, ip_address: input.ip_address }
      : { ...tier, ...common };
  return { result, cache: outcome };
}
