import type { Platform } from '../../platform/context.js';
import { registerGeoDatabaseFetch } from './resolver/database-fetch.js';
import { INITIAL_COUNTRY_LIST, SEED_VERSION, versionOn } from './geo.rules.js';
import * as store from './geo.store.js';

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
 * The geo area's start-up work: the country list seed and the database download when configured. The audit log's
 * 7 years are kept by its partitions (src/platform/partitions.ts), each dropped whole once past them.
 */
export async function registerGeoJobs(platform: Platform): Promise<void> {
  await seedCountryList(platform);
  await registerGeoDatabaseFetch(platform);
}
