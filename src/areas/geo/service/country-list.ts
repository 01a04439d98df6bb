import type { Platform } from '../../../platform/context.js';
import * as store from '../geo.store.js';

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
