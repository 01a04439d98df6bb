import type { Selectable } from 'kysely';
import type { Environment, Timestamp } from '../../platform/db/platform-tables.js';
import type { Duration } from './exclusions.rules.js';

export type ExclusionChannel = 'api' | 'embed' | 'regulator';

/** One row of the national register: an operator's registration or a regulator master-list entry. */
export interface ExclusionsTable {
  exclusion_id: string;
  environment: Environment;
  origin: 'operator' | 'regulator';
  /** Where the row came in (the reports count registrations by it): the tenant API, a hosted embed, the regulator's list. */
  channel: ExclusionChannel;
  /** null for regulator rows. */
  tenant_id: string | null;
  user_id: string | null;
  /** As registered (trimmed, lower case) and as matched (canonicalEmail). */
  email: string | null;
  email_canonical: string | null;
  phone: string | null;
  /** Keyed hashes of the contacts (contactHash): matched against the tenants' contact sightings. */
  email_hash: string | null;
  phone_hash: string | null;
  duration: Duration;
  is_permanent: boolean;
  reason: string | null;
  initiated_at: Timestamp | null;
  effective_from: Timestamp;
  expires_at: Timestamp | null;
  regulator_propagated: boolean;
  status: 'active' | 'expired' | 'voided';
  request_hash: string;
  expired_at: Timestamp | null;
  voided_at: Timestamp | null;
  void_reason: string | null;
  voided_by: string | null;
  void_confirmed_by: string | null;
}

export interface ContactSightingsTable {
  tenant_id: string;
  contact_hash: string;
  first_seen_at: Timestamp;
}

export interface ExclusionTables {
  exclusions: ExclusionsTable;
  contact_sightings: ContactSightingsTable;
}

export type ExclusionRow = Selectable<ExclusionsTable>;
export type NewExclusion = Omit<
  ExclusionRow,
  'status' | 'expired_at' | 'voided_at' | 'void_reason' | 'voided_by' | 'void_confirmed_by'
>;
