import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Tenant } from '../../../platform/db/platform-tables.js';
import { AppError } from '../../../platform/errors.js';
import { selectVendor, type Vendors } from '../../../platform/vendors.js';
import type { ResolverKind } from '../geo.tables.js';

/** Where an IP address is: a two-letter country and, when known, an ISO 3166-2 region such as CA-BC. */
export interface ResolvedLocation {
  country_code: string;
  region: string | null;
}

/** An IP-to-location vendor. null means it cannot place the address (answered as 422 unresolvable_ip). */
export interface GeoResolver {
  /** Cache partition: results of the sandbox stub and the production vendor never mix. */
  readonly kind: ResolverKind;
  resolve(ipAddress: string): Promise<ResolvedLocation | null>;
}

/**
 * The sandbox stub, exactly the spec's table: an address resolves like the table's address of the same /24.
 * Regions are plausible ISO 3166-2 codes for illustration; CA resolves to British Columbia, so the stub never
 * lands on the restricted CA-ON entry.
 */
const SANDBOX_PREFIXES: Readonly<Record<string, ResolvedLocation>> = {
  // allowed
  '203.0.113': { country_code: 'CA', region: 'CA-BC' },
  '200.160.5': { country_code: 'BR', region: 'BR-SP' },
  '198.51.100': { country_code: 'JP', region: 'JP-13' },
  '39.32.5': { country_code: 'PK', region: 'PK-IS' },
  // restricted
  '81.2.69': { country_code: 'GB', region: 'GB-ENG' },
  '1.1.1': { country_code: 'AU', region: 'AU-NSW' },
  '78.193.5': { country_code: 'FR', region: 'FR-IDF' },
  '46.114.5': { country_code: 'DE', region: 'DE-BE' },
  '83.46.5': { country_code: 'ES', region: 'ES-MD' },
  '93.41.5': { country_code: 'IT', region: 'IT-62' },
  '193.190.5': { country_code: 'NL', region: 'NL-NH' },
  '155.4.5': { country_code: 'SE', region: 'SE-AB' },
  // blocked
  '8.8.8': { country_code: 'US', region: 'US-CA' },
  '95.108.213': { country_code: 'RU', region: 'RU-MOW' },
  '178.124.5': { country_code: 'BY', region: 'BY-HM' },
  '175.45.5': { country_code: 'KP', region: 'KP-01' },
  '5.232.5': { country_code: 'IR', region: 'IR-23' },
  '202.165.5': { country_code: 'MM', region: 'MM-06' },
};

export const sandboxResolver: GeoResolver = {
  kind: 'sandbox',
  async resolve(ipAddress) {
    if (isIP(ipAddress) !== 4) return null; // The table has IPv4 addresses only.
    const prefix = ipAddress.split('.').slice(0, 3).join('.');
    return SANDBOX_PREFIXES[prefix] ?? null;
  },
};

/** The production resolver as a service holds it. */
export interface ProductionGeoVendor extends GeoResolver {
  /** Re-reads the database files after a download replaced them. */
  reload?(): Promise<void>;
  /** When the data in use was built, once open. */
  readonly buildDate?: Date | undefined;
}

/** Sandbox tenants get the stub; a live tenant gets 403 cutover_required until geo is cut over for it. */
export function resolverFor(vendors: Vendors, tenant: Tenant): GeoResolver {
  return selectVendor(tenant, 'geo', vendors.geo);
}

/**
 * The canonical form of a valid address, so that spellings of one address share a cache entry: IPv6 compressed
 * and lower case, and an IPv4-mapped IPv6 address (::ffff:8.8.8.8) as the IPv4 address it carries.
 * Anything that is not an IPv4 or IPv6 address is 400 invalid_ip.
 */
export function canonicalIp(input: string): string {
  if (isIP(input) === 0) {
    throw new AppError('invalid_ip', 'ip_address must be an IPv4 or IPv6 address');
  }
  return ipaddr.process(input.split('%')[0]!).toString();
}
