import { audit } from '../../platform/audit.js';
import type { Platform, ServiceContext, TenantContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { databaseGroupCommit } from '../../platform/group-commit.js';
import { emitEvent } from '../../platform/outbox.js';
import { withTransaction } from '../../platform/service-context.js';
import { geoCacheFor } from './geo.cache.js';
import { UNLISTED_PLACE_STATUS, versionOn, type CountryStatus } from './geo.rules.js';
import { canonicalIp, resolverFor } from './resolver/resolver.js';
import type { GeoCheckRequest, GeoResult, SetCountryStatusRequest } from './geo.schemas.js';
import { tierMoved } from './geo.events.js';
import * as store from './geo.store.js';
import { auditChecks, type NewAuditRow } from './statements/geo-check.js';
import type { CacheOutcome } from './geo.tables.js';

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

declare module '../../platform/group-commit.js' {
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

/** The ETag of a list revision: changes with every change, even two on the same day (same version date). */
export const countryListEtag = (revision: number) => `"geo-countries-${revision}"`;

export async function currentListEtag(platform: Platform): Promise<string> {
  return countryListEtag((await store.listVersion(platform.db)).revision);
}

export async function countryList(platform: Platform) {
  const rows = await store.listCountries(platform.db);
  const first = rows[0]!;
  return {
    etag: countryListEtag(first.revision),
    body: {
      version: first.version,
      countries: rows.map(({ code, name, status }) => ({ code, name, status })),
    },
  };
}

/**
 * The staff's tier move. Setting the status an entry already has changes nothing (200, no event, no new
 * version). Otherwise the version moves, the change is recorded, and every tenant is told, in one transaction.
 */
export async function setCountryStatus(ctx: ServiceContext, rawCode: string, input: SetCountryStatusRequest) {
  const code = rawCode.toUpperCase();
  return withTransaction(ctx, async (tx, ctx) => {
    const entry = await store.findCountry(tx, code, { forUpdate: true });
    if (!entry) throw new AppError('country_not_found', `No entry ${code} in the country list`);
    if (entry.status === input.status) return entry;

    const now = ctx.clock.now();
    const { revision } = await store.bumpListVersion(tx, versionOn(now), now);
    const updated = await store.setCountryStatus(tx, code, input.status, now);
    await store.recordChange(tx, {
      code,
      previous_status: entry.status,
      new_status: input.status,
      reason: input.reason,
      revision,
      changed_at: now,
      request_id: ctx.requestId,
    });
    await emitEvent(tx, {
      tenantIds: await store.allTenantIds(tx),
      ...tierMoved({
        code,
        name: entry.name,
        previousStatus: entry.status,
        newStatus: input.status,
        reason: input.reason,
      }),
      at: now,
    });
    // Service-wide (no tenant): the staff's decision, beside the list's own change log.
    await audit(tx, ctx, 'geo.country_status_changed', {
      code,
      from: entry.status,
      to: input.status,
      reason: input.reason,
      revision,
    });
    return updated;
  });
}
