import { createRequire } from 'node:module';
import isoCountries from 'i18n-iso-countries';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import { SEED_VERSION } from './geo.rules.js';

interface Entry {
  code: string;
  name: string;
  status: string;
}

describe('geo country list', () => {
  const suite = useSuite(() => TenantDriver.start());

  const list = (headers: Record<string, string> = {}) => {
    const { t, tenant } = suite.current;
    return t.inject({
      method: 'GET',
      url: '/v1/geo/countries',
      headers: { authorization: `Bearer ${tenant.apiKey}`, ...headers },
    });
  };
  const move = (code: string, status: string, reason = 'regulatory_change') =>
    suite.current.t.backoffice('PUT', `/geo/countries/${code}`, { status, reason });
  const today = () => suite.current.t.platform.clock.now().toISOString().slice(0, 10);

  it('lists every ISO 3166-1 country plus CA-ON with the spec tiers, cacheable for a day', async () => {
    const response = await list();
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
    expect(response.headers.etag).toMatch(/^"[^"]+"$/);
    const { version, countries } = response.json<{ version: string; countries: Entry[] }>();
    expect(version).toBe(SEED_VERSION);
    const codes = countries.map((c) => c.code);
    expect(codes.filter((code) => /^[A-Z]{2}$/.test(code))).toHaveLength(249);
    expect(codes).toHaveLength(250);
    expect(new Set(codes).size).toBe(250);
    expect(countries.find((c) => c.code === 'CA-ON')).toEqual({
      code: 'CA-ON',
      name: 'Ontario, Canada',
      status: 'restricted',
    });
    expect(countries.find((c) => c.code === 'CA')).toEqual({ code: 'CA', name: 'Canada', status: 'allowed' });
    const byStatus = (status: string) =>
      countries
        .filter((c) => c.status === status)
        .map((c) => c.code)
        .sort();
    expect(byStatus('blocked')).toEqual(['BY', 'IR', 'KP', 'MM', 'RU', 'US']);
    expect(byStatus('restricted')).toEqual(['AU', 'CA-ON', 'DE', 'ES', 'FR', 'GB', 'IT', 'NL', 'SE']);
    expect(countries.every((c) => c.name.length > 0)).toBe(true);
  });

  it('its two-letter codes are exactly the officially assigned ISO 3166-1 codes (checked against i18n-iso-countries)', async () => {
    isoCountries.registerLocale(createRequire(import.meta.url)('i18n-iso-countries/langs/en.json'));
    // The library also carries XK (Kosovo), a user-assigned code that ISO 3166-1 does not assign.
    const assigned = Object.keys(isoCountries.getAlpha2Codes())
      .filter((code) => code !== 'XK')
      .sort();
    const { countries } = (await list()).json<{ countries: Entry[] }>();
    const listed = countries.map((c) => c.code).filter((code) => code.length === 2);
    expect(listed.sort()).toEqual(assigned);
  });

  it('answers 304 with no body to If-None-Match with the current ETag', async () => {
    const etag = (await list()).headers.etag as string;
    const again = await list({ 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('public, max-age=86400');
    expect((await list({ 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
    expect((await list({ 'if-none-match': '"stale"' })).statusCode).toBe(200);
  });

  it('a tier move bumps the version to its date and the ETag on every change, even twice a day', async () => {
    const { t } = suite.current;
    const before = await list();
    await t.advance(86_400);
    expect((await move('BR', 'restricted')).json()).toEqual({
      code: 'BR',
      name: 'Brazil',
      status: 'restricted',
    });
    const first = await list();
    expect(first.json().version).toBe(today());
    expect(first.headers.etag).not.toBe(before.headers.etag);
    expect((await list({ 'if-none-match': before.headers.etag as string })).statusCode).toBe(200);
    expect(first.json().countries.find((c: Entry) => c.code === 'BR').status).toBe('restricted');

    await move('BR', 'allowed');
    const audit = await t.backoffice('GET', '/audit-log?action=geo.country_status_changed&limit=2');
    expect(audit.json().entries).toEqual([
      expect.objectContaining({
        actor: 'backoffice',
        request_id: expect.stringMatching(/^req_/),
        details: expect.objectContaining({
          code: 'BR',
          from: 'restricted',
          to: 'allowed',
          reason: 'regulatory_change',
        }),
      }),
      expect.objectContaining({
        details: expect.objectContaining({ code: 'BR', from: 'allowed', to: 'restricted' }),
      }),
    ]);
    const second = await list();
    expect(second.json().version).toBe(today());
    expect(second.headers.etag).not.toBe(first.headers.etag);
  });

  it('setting the status an entry already has changes nothing', async () => {
    const before = await list();
    const same = await move('US', 'blocked');
    expect(same.statusCode).toBe(200);
    expect(same.json()).toEqual({ code: 'US', name: 'United States', status: 'blocked' });
    expect((await list()).headers.etag).toBe(before.headers.etag);
  });

  it('an unknown code is 404 country_not_found; a bad status is 400; tenants cannot change the list', async () => {
    const { t, tenant } = suite.current;
    const unknown = await move('ZZ', 'blocked');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('country_not_found');
    expect((await move('FR', 'banned')).statusCode).toBe(400);
    expect((await t.backoffice('PUT', '/geo/countries/FR', { status: 'allowed' })).statusCode).toBe(400);
    // The reason reaches every tenant: a code from COUNTRY_MOVE_REASONS, never words staff typed.
    const typed = await t.backoffice('PUT', '/geo/countries/FR', {
      status: 'allowed',
      reason: 'our lawyer said so',
    });
    expect([typed.statusCode, typed.json().error]).toEqual([400, 'invalid_request']);
    const byTenant = await t.api(tenant.apiKey, 'PUT', '/v1/geo/countries/FR', {
      status: 'allowed',
      reason: 'x',
    });
    expect(byTenant.statusCode).toBe(404);
  });

  it('the published API document carries both tenant routes under the geo tag', async () => {
    const { t } = suite.current;
    const document = (await t.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    expect(document.paths['/v1/geo/check'].post.tags).toEqual(['geo']);
    expect(document.paths['/v1/geo/countries'].get.tags).toEqual(['geo']);
    expect(document.paths['/backoffice/v1/geo/countries/{code}']).toBeUndefined();
  });
});

describe('geo tier events', () => {
  // A sandbox tenant and a live one, each with its own webhook receiver.
  const suite = useSuite(async (own) => {
    const sandbox = own(await TenantDriver.start());
    const live = await sandbox.otherTenant({ environment: 'live' });
    return {
      t: sandbox.t,
      receivers: [sandbox.receiver, live.receiver],
      tenants: [sandbox.tenant, live.tenant],
    };
  });

  it.each([
    ['blocked', 'geo.country_blocked', 'allowed'],
    ['restricted', 'geo.country_restricted', 'blocked'],
    ['allowed', 'geo.country_allowed', 'restricted'],
  ])(
    'moving PK to %s sends %s, signed, to every tenant of every environment',
    async (status, event, previous) => {
      const { t, receivers, tenants } = suite.current;
      const reason = status === 'allowed' ? 'licence_granted' : 'sanctions_regime';
      expect((await t.backoffice('PUT', '/geo/countries/pk', { status, reason })).statusCode).toBe(200);
      await t.deliverWebhooks();
      tenants.forEach((tenant, i) => {
        const received = receivers[i]!.verified(tenant.signingSecret).filter((e) => e.event === event);
        expect(received).toHaveLength(1);
        expect(received[0]!.data).toStrictEqual({
          country_code: 'PK',
          country_name: 'Pakistan',
          previous_status: previous,
          new_status: status,
          reason,
        });
      });
    },
  );

  it('the sub-national entry is announced by its own code', async () => {
    const { t, receivers, tenants } = suite.current;
    await t.backoffice('PUT', '/geo/countries/CA-ON', { status: 'allowed', reason: 'licence_granted' });
    await t.deliverWebhooks();
    const [event] = receivers[0]!
      .verified(tenants[0]!.signingSecret)
      .filter((e) => e.data.country_code === 'CA-ON');
    expect(event?.data).toStrictEqual({
      country_code: 'CA-ON',
      country_name: 'Ontario, Canada',
      previous_status: 'restricted',
      new_status: 'allowed',
      reason: 'licence_granted',
    });
    expect(event?.event).toBe('geo.country_allowed');
  });

  it('setting the same status sends nothing', async () => {
    const { t, receivers } = suite.current;
    const before = receivers[1]!.received.length;
    await t.backoffice('PUT', '/geo/countries/US', { status: 'blocked', reason: 'operator_policy' });
    await t.deliverWebhooks();
    expect(receivers[1]!.received.length).toBe(before);
  });
});
