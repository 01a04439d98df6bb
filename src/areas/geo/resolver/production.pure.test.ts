import { iso31662 } from 'iso-3166';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../../test/helpers/suite.js';
import { locationOf } from './mmdb-record.js';
import { englishNameCodes, subdivisionCode } from './regions.js';
import { openProductionGeoResolver } from './production.js';

const quiet = { info: () => {}, error: () => {} };

// Facts about the shipped DB-IP Lite data that do not move from one monthly release to the next.
describe('production geo resolver on the shipped DB-IP Lite data', () => {
  const suite = useSuite(() => openProductionGeoResolver({ log: quiet, watchIntervalMs: 0 }));

  it.each(['128.100.0.1', '128.100.31.7', '128.100.200.1'])(
    'the University of Toronto range (128.100.0.0/16): %s is in Ontario, CA-ON',
    async (ip) => {
      const resolver = suite.current;
      expect(await resolver.resolve(ip)).toEqual({ country_code: 'CA', region: 'CA-ON' });
    },
  );

  it.each([
    ['81.2.69.142', 'GB'],
    ['8.8.8.8', 'US'],
    ['::ffff:8.8.8.8', 'US'], // IPv4-mapped IPv6 is the IPv4 address it carries
    // Public resolvers over IPv6. Not Google's 2001:4860:4860::8888: it is anycast and DB-IP places it in Canada.
    ['2a02:6b8::feed:ff', 'RU'], // Yandex.DNS
    ['2620:119:35::35', 'US'], // OpenDNS (Cisco)
  ])('%s resolves to %s', async (ip, country) => {
    const resolver = suite.current;
    expect((await resolver.resolve(ip))?.country_code).toBe(country);
  });

  it.each([
    '10.1.2.3', // private
    '172.16.5.4',
    '192.168.1.1',
    '127.0.0.1', // loopback
    '169.254.10.1', // link-local
    '100.64.0.1', // CGNAT
    '192.0.2.1', // documentation
    '198.51.100.7',
    '203.0.113.10', // the sandbox stub places this one; production never does
    '224.0.0.1', // multicast
    '0.0.0.0',
    '2001:db8::1', // documentation
    'fd12:3456::1', // unique local
    'fe80::1', // link-local
    '::1',
    '::ffff:10.0.0.1',
  ])('the reserved address %s is unresolvable', async (ip) => {
    const resolver = suite.current;
    expect(await resolver.resolve(ip)).toBeNull();
  });

  it('names the build date of its data', () => {
    const resolver = suite.current;
    expect(resolver.buildDate.getTime()).toBeGreaterThan(Date.parse('2024-01-01'));
    expect(resolver.describe()).toContain(`built ${resolver.buildDate.toISOString().slice(0, 10)}`);
    expect(resolver.describe()).toContain('CC BY 4.0');
  });
});

// No MaxMind GeoLite2 file can be obtained here and npm has no maintained mmdb writer to build a fixture with,
// so the record-shape adapter is tested directly, on records shaped as MaxMind documents them.
describe('record shapes', () => {
  it('a MaxMind GeoIP2/GeoLite2 City record: country and first subdivision ISO codes', () => {
    const record = {
      continent: { code: 'NA', names: { en: 'North America' } },
      country: { iso_code: 'CA', names: { en: 'Canada' } },
      registered_country: { iso_code: 'CA' },
      subdivisions: [{ iso_code: 'ON', names: { en: 'Ontario' } }],
      city: { names: { en: 'Toronto' } },
    };
    expect(locationOf(record)).toEqual({ country_code: 'CA', region: 'CA-ON' });
  });

  it('a MaxMind record of Great Britain takes the nation, not the county that follows it', () => {
    const record = {
      country: { iso_code: 'GB' },
      subdivisions: [{ iso_code: 'ENG' }, { iso_code: 'WBK' }],
    };
    expect(locationOf(record)).toEqual({ country_code: 'GB', region: 'GB-ENG' });
  });

  it("DB-IP's own City Lite record names the subdivision without a code", () => {
    const record = { country: { iso_code: 'DE' }, subdivisions: [{ names: { en: 'Bavaria' } }] };
    expect(locationOf(record)).toEqual({ country_code: 'DE', region: 'DE-BY' });
  });

  it('the ip-location-db record: country_code and state1', () => {
    expect(locationOf({ country_code: 'CA', state1: 'Quebec', city: 'Montreal' })).toEqual({
      country_code: 'CA',
      region: 'CA-QC',
    });
    expect(locationOf({ country_code: 'SE', state1: 'Stockholm' })).toEqual({
      country_code: 'SE',
      region: 'SE-AB',
    });
  });

  it('a country without a known subdivision keeps its country and no region', () => {
    expect(locationOf({ country_code: 'FR', state1: 'Nowhere Land' })).toEqual({
      country_code: 'FR',
      region: null,
    });
    expect(locationOf({ country: { iso_code: 'JP' } })).toEqual({ country_code: 'JP', region: null });
  });

  it('a record without a country, or with a code that is no country, is no location', () => {
    expect(locationOf(null)).toBeNull();
    expect(locationOf({ continent: { code: 'EU' } })).toBeNull();
    expect(locationOf({ country_code: 'ZZ' })).toBeNull();
    expect(locationOf({ country: { iso_code: 'EU' } })).toBeNull();
    expect(locationOf({ country_code: 'XK', state1: '' })).toEqual({ country_code: 'XK', region: null });
  });
});

describe('subdivision names to ISO 3166-2', () => {
  it.each([
    ['CA', 'Ontario', 'CA-ON'],
    ['US', 'District of Columbia', 'US-DC'],
    ['GB', 'Scotland', 'GB-SCT'],
    ['ES', 'Catalonia', 'ES-CT'],
    ['IT', 'Lombardy', 'IT-25'],
    ['NL', 'North Holland', 'NL-NH'],
    ['AU', 'New South Wales', 'AU-NSW'],
    ['FR', 'Ile-de-France', 'FR-IDF'], // accents do not matter
    ['DE', 'Baden-Wurttemberg', 'DE-BW'],
  ])('%s %s is %s', (country, name, code) => {
    expect(subdivisionCode(country, name)).toBe(code);
  });

  it('a name is looked up within its own country only', () => {
    expect(subdivisionCode('US', 'Ontario')).toBeNull();
  });

  it('every hand-kept English name points at a real ISO 3166-2 code', () => {
    const codes = new Set(iso31662.map((entry) => entry.code));
    expect(englishNameCodes.filter((code) => !codes.has(code))).toEqual([]);
  });
});
