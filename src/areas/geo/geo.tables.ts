import type { Generated, Selectable } from 'kysely';
import type { Timestamp } from '../../platform/db/platform-tables.js';
import type { CountryStatus } from './geo.rules.js';

export type GeoStatus = 'status_allowed' | 'status_restricted' | 'status_blocked';
export type CacheOutcome = 'HIT' | 'MISS';
export type ResolverKind = 'sandbox' | 'production';

/** The service-wide country tiers (not tenant data: tenants read them and cannot change them). */
export interface GeoCountriesTable {
  /** ISO 3166-1 alpha-2, or an ISO 3166-2 sub-national entry such as CA-ON. */
  code: string;
  name: string;
  status: CountryStatus;
  updated_at: Timestamp;
}

/** One row: the list's `version` (date of its latest change) and a revision that grows on every change. */
export interface GeoCountryListTable {
  list_id: Generated<boolean>;
  version: string;
  revision: number;
  updated_at: Timestamp;
}

/** Every tier move by the service's staff, with the revision it produced. */
export interface GeoCountryChangesTable {
  change_id: Generated<number>;
  code: string;
  previous_status: CountryStatus;
  new_status: CountryStatus;
  reason: string;
  revision: number;
  changed_at: Timestamp;
  request_id: string | null;
}

/** Every geo check of a tenant, hit or miss, resolvable or not; kept 7 years. */
export interface GeoAuditLogTable {
  geo_audit_id: Generated<number>;
  tenant_id: string;
  checked_at: Timestamp;
  request_id: string;
  ip_address: string;
  user_agent: string | null;
  context: string | null;
  resolver: ResolverKind;
  country_code: string | null;
  region: string | null;
  status: GeoStatus;
  cache: CacheOutcome;
}

export interface GeoTables {
  geo_countries: GeoCountriesTable;
  geo_country_list: GeoCountryListTable;
  geo_country_changes: GeoCountryChangesTable;
  geo_audit_log: GeoAuditLogTable;
}

export type GeoCountry = Selectable<GeoCountriesTable>;
export type GeoAuditRow = Selectable<GeoAuditLogTable>;
