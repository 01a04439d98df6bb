import { iso31661 } from 'iso-3166';
import type { ResolvedLocation } from './resolver.js';
import { subdivisionCode } from './regions.js';

/** A record of ip-location-db's DB-IP Lite mmdb (the default data): a country code and subdivision names. */
export interface FlatCityRecord {
  country_code?: string;
  state1?: string;
}

/**
 * A record of a MaxMind GeoIP2/GeoLite2 City file, and of DB-IP's own mmdb files, which follow MaxMind's
 * layout but may give a subdivision's names without its iso_code.
 */
export interface MaxMindCityRecord {
  country?: { iso_code?: string };
  subdivisions?: { iso_code?: string; names?: Record<string, string> }[];
}

/** Kosovo is not in ISO 3166-1, yet every IP database uses the user-assigned XK for it. */
const COUNTRIES = new Set([...iso31661.map((country) => country.alpha2), 'XK']);
const SUBDIVISION_SUFFIX = /^[A-Z0-9]{1,3}$/;

/**
 * A database record, of either shape, as a location. No country, or a code that is not a country (ZZ unknown,
 * EU or AP continents in older files), is no location: the check answers unresolvable_ip, treated as blocked.
 */
export function locationOf(record: unknown): ResolvedLocation | null {
  if (!record || typeof record !== 'object') return null;
  const city = record as MaxMindCityRecord & FlatCityRecord;
  const country_code = (city.country?.iso_code ?? city.country_code)?.toUpperCase();
  if (!country_code || !COUNTRIES.has(country_code)) return null;
  return { country_code, region: regionOf(country_code, city) };
}

function regionOf(country: string, record: MaxMindCityRecord & FlatCityRecord): string | null {
  // MaxMind lists subdivisions largest first: the first is the first-level one (GB: England, then a county).
  const first = record.subdivisions?.[0];
  const suffix = first?.iso_code?.toUpperCase();
  if (suffix && SUBDIVISION_SUFFIX.test(suffix)) return `${country}-${suffix}`;
  const name = first?.names?.en ?? record.state1;
  return name ? subdivisionCode(country, name) : null;
}
