import type { Platform } from '../../platform/context.js';
import { registerRetention, yearsBefore } from '../../platform/retention.js';
import { registerGeoDatabaseFetch } from './resolver/database-fetch.js';
import { INITIAL_COUNTRY_LIST, SEED_VERSION, versionOn } from './geo.rules.js';
import * as store from './geo.store.js';

/** Geo audit rows are kept 7 calendar years on the service clock, then deleted by this daily job. */
export const AUDIT_RETENTION_JOB = 'geo.audit_retention';
export const AUDIT_RETENTION_YEARS = 7;

/**
 * Seeds the country list from the data file, idempotently: entries already present keep the tier the staff gave
 * them. The first seed creates version SEED_VERSION; entries added to the data file later are inserted at their
 * initial tier on the next start and move the list to a new version.
 */
export async function seedCountryList(platform: Platform): Promise<void> {
  await platform.db.transaction().execute(async (tx) => {
    const now = platform.clock.now();
    const created = await store.createListVersion(tx, { version: SEED_VERSION, now });
    const inserted = await store.insertMissingCountries(tx, INITIAL_COUNTRY_LIST, now);
    if (!created && inserted.length > 0) await store.bumpListVersion(tx, versionOn(now), now);
  });
}

/**
 * The geo area's start-up work: the country list seed, the database download when configured, and the daily audit
 * retention job.
 */
export async function registerGeoJobs(platform: Platform): Promise<void> {
  await seedCountryList(platform);
  await registerGeoDatabaseFetch(platform);
  await registerRetention(platform, {
    kind: AUDIT_RETENTION_JOB,
    table: 'geo_audit_log',
    key: 'geo_audit_id',
    at: 'checked_at',
    cutoff: yearsBefore(AUDIT_RETENTION_YEARS),
  });
}
