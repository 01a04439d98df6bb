import { beforeEach, describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { createStaffMember, postForm, signInAs } from '../helpers/staff-driver.js';
import { TenantDriver } from '../helpers/tenant-driver.js';
import { DAY, MINUTE } from '../helpers/units.js';
import { expectRefused, storedRows } from './stored-rows.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Case = [name: string, method: Method, url: string, body: object | undefined, code: string];

const NUL = 'a\u0000b';
const HIGH = 'a\ud800';
const LOW = 'a\udc00';

/** Bad input answers a clear 400 in the area's code, never a 500, and stores nothing (issue 16). */
describe('bad input', () => {
  const suite = useSuite(async (own) => {
    const d = own(await TenantDriver.start());
    await d.t.backoffice('PUT', `/tenants/${d.tenant.tenantId}/rate-limits`, {
      default_per_minute: 100_000,
      exclusions_per_minute: 100_000,
    });
    return d;
  });
  let before: Record<string, number>;
  const at = (seconds: number) => suite.current.at(seconds);
  const send = (method: Method, url: string, body?: object) => {
    const { t, tenant } = suite.current;
    return url.startsWith('/v1/') ? t.api(tenant.apiKey, method, url, body) : t.backoffice(method, url, body);
  };

  // Valid requests, one per route under test: each case below spoils one field.
  const limit = (fields: object = {}) => ({
    user_id: 'player-1',
    limit_type: 'limit_daily',
    amount_cents: 100_00,
    currency: 'USD',
    requested_at: at(0),
    ...fields,
  });
  const commit = (fields: object = {}) => ({
    user_id: 'player-1',
    transaction_id: 'dep-1',
    amount_cents: 10_00,
    currency: 'USD',
    committed_at: at(0),
    ...fields,
  });
  const amlEvent = (fields: object = {}) => ({
    user_id: 'player-1',
    event_type: 'deposit',
    transaction_id: 'txn-1',
    amount_cents: 10_00,
    currency: 'USD',
    metadata: { ip_country: 'GB', session_id: 'sess-1' },
    occurred_at: at(0),
    ...fields,
  });
  const exclusion = (fields: object = {}) => ({
    user_id: 'player-1',
    duration: 'duration_24h',
    email: 'player@example.com',
    initiated_at: at(0),
    ...fields,
  });
  const withdrawal = (fields: object = {}) => ({
    user_id: 'player-1',
    withdrawal_id: 'wd-1',
    amount_cents: 10_00,
    currency: 'USD',
    completed_at: at(0),
    ...fields,
  });
  const kycStart = (fields: object = {}) => ({
    user_id: 'player-1',
    email: 'player@example.com',
    phone: '+447700900123',
    withdrawal_amount_cents: 50_00,
    currency: 'USD',
    ...fields,
  });
  const screen = (fields: object = {}) => ({
    user_id: 'player-1',
    first_name: 'Margaret',
    last_name: 'Thornbury',
    date_of_birth: '1988-07-19',
    nationality: 'GB',
    email: 'margaret@example.com',
    ...fields,
  });

  beforeEach(async () => {
    const { t } = suite.current;
    before = await storedRows(t.db);
  });

  async function expectAllRefused(cases: Case[]) {
    const { t } = suite.current;
    for (const [name, method, url, body, code] of cases) {
      const response = await send(method, url, body);
      expectRefused(response, 400, code);
      expect(response.statusCode, name).toBe(400);
    }
    expect(await storedRows(t.db)).toEqual(before);
  }

  describe('NUL characters and lone UTF-16 surrogates', () => {
    it('are refused in any string field of every area, with the area code', async () => {
      await expectAllRefused([
        ['exclusion user_id', 'POST', '/v1/exclusions', exclusion({ user_id: NUL }), 'invalid_payload'],
        ['exclusion reason', 'POST', '/v1/exclusions', exclusion({ reason: HIGH }), 'invalid_payload'],
        ['limit user_id (NUL)', 'POST', '/v1/limits', limit({ user_id: NUL }), 'invalid_request'],
        ['limit user_id (high)', 'POST', '/v1/limits', limit({ user_id: HIGH }), 'invalid_request'],
        ['limit user_id (low)', 'POST', '/v1/limits', limit({ user_id: LOW }), 'invalid_request'],
        [
          'check user_id',
          'POST',
          '/v1/limits/check',
          { user_id: LOW, amount_cents: 1, currency: 'USD' },
          'invalid_request',
        ],
        [
          'commit transaction_id',
          'POST',
          '/v1/limits/commit',
          commit({ transaction_id: NUL }),
          'invalid_request',
        ],
        ['kyc phone', 'POST', '/v1/kyc/start', kycStart({ phone: `+4477${NUL}` }), 'invalid_request'],
        [
          'withdrawal id',
          'POST',
          '/v1/kyc/withdrawal-completed',
          withdrawal({ withdrawal_id: HIGH }),
          'invalid_request',
        ],
        [
          'geo user_agent',
          'POST',
          '/v1/geo/check',
          { ip_address: '203.0.113.10', user_agent: NUL },
          'invalid_ip',
        ],
        [
          'sanctions last_name',
          'POST',
          '/v1/sanctions/screen',
          screen({ last_name: HIGH }),
          'missing_fields',
        ],
        ['aml user_id', 'POST', '/v1/aml/event', amlEvent({ user_id: NUL }), 'invalid_event'],
        [
          'aml metadata value',
          'POST',
          '/v1/aml/event',
          amlEvent({ metadata: { session_id: LOW } }),
          'invalid_event',
        ],
        [
          'aml metadata key',
          'POST',
          '/v1/aml/event',
          amlEvent({ metadata: { [NUL]: 'x' } }),
          'invalid_event',
        ],
        [
          'aml nested metadata',
          'POST',
          '/v1/aml/event',
          amlEvent({ metadata: { a: [{ b: NUL }] } }),
          'invalid_event',
        ],
        [
          'aml screen',
          'POST',
          '/v1/aml/screen',
          {
            user_id: 'p',
            withdrawal_id: HIGH,
            amount_cents: 1,
            currency: 'USD',
            payment_method: 'card',
            destination_country: 'GB',
          },
          'invalid_event',
        ],
        [
          'back-office tenant name',
          'POST',
          '/tenants',
          { name: NUL, environment: 'sandbox' },
          'invalid_request',
        ],
        [
          'regulator email',
          'POST',
          '/regulator/exclusions',
          { email: `x${NUL}@example.com`, duration: 'duration_24h', environment: 'sandbox' },
          'invalid_payload',
        ],
        [
          'geo tier reason',
          'PUT',
          '/geo/countries/GB',
          { status: 'restricted', reason: HIGH },
          'invalid_request',
        ],
      ]);
    });

    it('are refused in query parameters and path parameters, and so is text that does not decode', async () => {
      await expectAllRefused([
        [
          'exclusion check email',
          'GET',
          '/v1/exclusions/check?email=x%00@example.com',
          undefined,
          'invalid_payload',
        ],
        ['limits list', 'GET', '/v1/limits?user_id=a%00', undefined, 'invalid_request'],
        ['kyc tier', 'GET', '/v1/kyc/tier?user_id=%00', undefined, 'invalid_request'],
        ['sanctions status', 'GET', '/v1/sanctions/status?user_id=a%00b', undefined, 'missing_fields'],
        ['aml cases', 'GET', '/v1/aml/cases?user_id=a%00b', undefined, 'invalid_event'],
        ['limit id in the path', 'DELETE', '/v1/limits/lim_%00', undefined, 'invalid_request'],
        ['staff cases', 'GET', '/aml/cases?user_id=%00', undefined, 'invalid_request'],
        // A percent-encoded lone surrogate is not UTF-8; it used to arrive undecoded as the value meant.
        ['undecodable user_id', 'GET', '/v1/limits?user_id=a%ED%A0%80', undefined, 'invalid_request'],
        ['broken escape', 'GET', '/v1/exclusions/check?email=a%ZZ@example.com', undefined, 'invalid_payload'],
      ]);
    });

    it('no longer let two user ids with different lone surrogates become one user', async () => {
      const { t } = suite.current;
      for (const userId of [HIGH, LOW]) {
        expectRefused(await send('POST', '/v1/limits', limit({ user_id: userId })), 400, 'invalid_request');
      }
      expect(await t.db.selectFrom('deposit_limits').selectAll().execute()).toEqual([]);
      expect(await storedRows(t.db)).toEqual(before);
    });

    it('accepts a character outside the BMP (a surrogate pair) as before', async () => {
      const response = await send('POST', '/v1/limits', limit({ user_id: 'player-😀' }));
      expect(response.statusCode).toBe(201);
      expect(response.json().user_id).toBe('player-😀');
    });
  });

  describe('timestamps', () => {
    const notInstants = [
      '2026-06-30T23:59:60Z', // a leap second
      '0000-01-01T00:00:00Z', // year 0000
      '2026-02-30T00:00:00Z', // 30 February
      '2025-02-29T12:00:00Z', // 29 February of a common year
      '2026-01-01T24:00:00Z',
      '2026-01-01T00:00:00+24:00',
    ];

    it('that are not real instants are refused in every area', async () => {
      const cases: Case[] = notInstants.flatMap((value): Case[] => [
        ['requested_at', 'POST', '/v1/limits', limit({ requested_at: value }), 'invalid_request'],
        ['committed_at', 'POST', '/v1/limits/commit', commit({ committed_at: value }), 'invalid_request'],
        ['occurred_at', 'POST', '/v1/aml/event', amlEvent({ occurred_at: value }), 'invalid_event'],
        ['initiated_at', 'POST', '/v1/exclusions', exclusion({ initiated_at: value }), 'invalid_payload'],
        [
          'completed_at',
          'POST',
          '/v1/kyc/withdrawal-completed',
          withdrawal({ completed_at: value }),
          'invalid_request',
        ],
      ]);
      await expectAllRefused(cases);
      const body = (await send('POST', '/v1/limits', limit({ requested_at: notInstants[0] }))).json();
      expect(body.message).toContain('real instant');
    });

    it('more than 5 minutes ahead of the service clock, or older than the field allows, are refused', async () => {
      const { t } = suite.current;
      const future = 5 * MINUTE + 1;
      await expectAllRefused([
        ['requested_at ahead', 'POST', '/v1/limits', limit({ requested_at: at(future) }), 'invalid_request'],
        [
          'requested_at a day old',
          'POST',
          '/v1/limits',
          limit({ requested_at: at(-DAY - 1) }),
          'invalid_request',
        ],
        [
          'committed_at ahead',
          'POST',
          '/v1/limits/commit',
          commit({ committed_at: at(future) }),
          'invalid_request',
        ],
        [
          'committed_at 30 days old',
          'POST',
          '/v1/limits/commit',
          commit({ committed_at: at(-30 * DAY - 1) }),
          'invalid_request',
        ],
        [
          'occurred_at ahead',
          'POST',
          '/v1/aml/event',
          amlEvent({ occurred_at: at(future) }),
          'invalid_event',
        ],
        [
          'occurred_at a year old',
          'POST',
          '/v1/aml/event',
          amlEvent({ occurred_at: at(-366 * DAY - 1) }),
          'invalid_event',
        ],
        [
          'initiated_at ahead',
          'POST',
          '/v1/exclusions',
          exclusion({ initiated_at: at(future) }),
          'invalid_payload',
        ],
        [
          'initiated_at a year old',
          'POST',
          '/v1/exclusions',
          exclusion({ initiated_at: at(-366 * DAY - 1) }),
          'invalid_payload',
        ],
        [
          'completed_at ahead',
          'POST',
          '/v1/kyc/withdrawal-completed',
          withdrawal({ completed_at: at(future) }),
          'invalid_request',
        ],
        [
          'year 9999',
          'POST',
          '/v1/aml/event',
          amlEvent({ occurred_at: '9999-12-31T23:59:59Z' }),
          'invalid_event',
        ],
      ]);
      const body = (await send('POST', '/v1/limits', limit({ requested_at: at(future) }))).json();
      expect(body.message).toContain(t.platform.clock.now().toISOString());
    });

    it('at the edges of each window are accepted', async () => {
      const ahead = 5 * MINUTE;
      const accepted: [string, Method, string, object][] = [
        ['requested_at ahead', 'POST', '/v1/limits', limit({ user_id: 'edge-1', requested_at: at(ahead) })],
        [
          'requested_at a day old',
          'POST',
          '/v1/limits',
          limit({ user_id: 'edge-2', requested_at: at(-DAY) }),
        ],
        [
          'committed_at',
          'POST',
          '/v1/limits/commit',
          commit({ transaction_id: 'edge-3', committed_at: at(-30 * DAY) }),
        ],
        [
          'occurred_at',
          'POST',
          '/v1/aml/event',
          amlEvent({ transaction_id: 'edge-4', occurred_at: at(-366 * DAY) }),
        ],
        [
          'occurred_at ahead, with an offset',
          'POST',
          '/v1/aml/event',
          amlEvent({ transaction_id: 'edge-5', occurred_at: at(ahead).replace('Z', '+00:00') }),
        ],
        [
          'initiated_at',
          'POST',
          '/v1/exclusions',
          exclusion({ user_id: 'edge-6', initiated_at: at(-366 * DAY) }),
        ],
        // No past bound: a withdrawal reported late still counts toward the lifetime total.
        [
          'completed_at years ago',
          'POST',
          '/v1/kyc/withdrawal-completed',
          withdrawal({ withdrawal_id: 'edge-7', completed_at: '2001-01-01T00:00:00Z' }),
        ],
      ];
      for (const [name, method, url, body] of accepted) {
        const response = await send(method, url, body);
        expect(response.statusCode, `${name}: ${response.body}`).toBeLessThan(300);
      }
    });
  });

  describe('dates', () => {
    const notDates = ['0000-01-01', '2026-02-30', '2025-02-29', '2026-13-01', '2026-04-31', '10000-01-01'];

    it('date_of_birth 0000-01-01 is 400 missing_fields naming the field, and the player is not screened', async () => {
      const { t, tenant } = suite.current;
      const body = expectRefused(
        await send(
          'POST',
          '/v1/sanctions/screen',
          screen({ user_id: 'born-0000', date_of_birth: '0000-01-01' }),
        ),
        400,
        'missing_fields',
      );
      expect(body.fields).toEqual(['date_of_birth']);
      expect(body.message).toContain('years 0001 to 9999');
      const status = await t.api(tenant.apiKey, 'GET', '/v1/sanctions/status?user_id=born-0000');
      expectRefused(status, 404, 'screen_not_found');
      expect(await storedRows(t.db)).toEqual(before);
    });

    it('that do not exist are refused: a date of birth, a report period, a review cursor, an events-feed start', async () => {
      const cursor = (due: string) => Buffer.from(JSON.stringify([due, 'sanc_case_0'])).toString('base64url');
      await expectAllRefused([
        ...notDates.map((value): Case => [
          `date_of_birth ${value}`,
          'POST',
          '/v1/sanctions/screen',
          screen({ date_of_birth: value }),
          'missing_fields',
        ]),
        ...['2026-13', '0000-01', '2026-00', ...notDates].map((value): Case => [
          `period ${value}`,
          'GET',
          `/reports?period=${value}`,
          undefined,
          'invalid_request',
        ]),
        [
          'regenerate 2026-13',
          'POST',
          '/reports/regenerate',
          {
            tenant_id: suite.current.tenant.tenantId,
            report_type: 'threshold',
            period: '2026-13',
            reason: 'r',
            actor: 'Ann',
          },
          'invalid_request',
        ],
        ...['0000-01-01T00:00:00.000Z', '+275760-09-13T00:00:00.000Z', '2026-02-30T00:00:00.000Z'].map(
          (due): Case => [
            `cursor ${due}`,
            'GET',
            `/sanctions/cases?cursor=${cursor(due)}`,
            undefined,
            'invalid_request',
          ],
        ),
        ...['0000-01-01T00:00:00Z', '2026-01-01T00:00:00+24:00'].map((since): Case => [
          `events since ${since}`,
          'GET',
          `/v1/events?since=${encodeURIComponent(since)}`,
          undefined,
          'invalid_request',
        ]),
      ]);
    });

    it('at the ends of years 0001 and 9999 are accepted, stored and read back', async () => {
      const { t, tenant } = suite.current;
      for (const [userId, dateOfBirth] of [
        ['born-0001', '0001-01-01'],
        ['born-9999', '9999-12-31'],
        ['born-leap', '2024-02-29'],
      ] as const) {
        const response = await send(
          'POST',
          '/v1/sanctions/screen',
          screen({ user_id: userId, date_of_birth: dateOfBirth }),
        );
        expect(response.statusCode, response.body).toBe(201);
        const status = await t.api(tenant.apiKey, 'GET', `/v1/sanctions/status?user_id=${userId}`);
        expect(status.statusCode).toBe(200);
        const stored = await t.db
          .selectFrom('sanctions_screens')
          .select('date_of_birth')
          .where('tenant_id', '=', tenant.tenantId)
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow();
        expect(String(stored.date_of_birth)).toBe(dateOfBirth);
      }
      for (const period of ['0001-01', '9999-12', '0001-01-01', '9999-12-31']) {
        const listed = await send('GET', `/reports?period=${period}`);
        expect(listed.statusCode, listed.body).toBe(200);
        expect(listed.json()).toEqual({ reports: [] });
      }
    });
    it('typed into console forms are a 400 page when they do not exist, and change nothing', async () => {
      const { t, tenant } = suite.current;
      const admin = await signInAs(t, await createStaffMember(t, 'admin'));
      const page = (url: string) =>
        t.inject({ method: 'GET', url, headers: { cookie: `console_session=${admin.cookie}` } });
      const rows = await storedRows(t.db);
      for (const at of ['0000-01-01T00:00', '2026-02-30T00:00', '2025-02-29T12:00', '2026-01-01T24:00']) {
        const recover = await postForm(t, admin, `/console/tenants/${tenant.tenantId}/webhook/recover`, {
          since: at,
        });
        expect(recover.statusCode, at).toBe(400);
        expect(recover.body).toContain('a date and time that exists, years 0001 to 9999');
        const audit = await page(`/console/audit?from=${at}`);
        expect(audit.statusCode, at).toBe(400);
        expect(audit.body).toContain('Enter From as a date and time that exists');
      }
      for (const period of ['2026-13', '0000-01', '2026-02-30']) {
        const reports = await page(`/console/reports?period=${period}`);
        expect(reports.statusCode, period).toBe(400);
        expect(reports.body).toContain('a UTC day (YYYY-MM-DD) or a month (YYYY-MM) that exists');
      }
      expect(await storedRows(t.db)).toEqual(rows);
    });
  });

  describe('AML metadata', () => {
    const nested = (levels: number): object => {
      let value: object = {};
      for (let level = 1; level < levels; level++) value = { d: value };
      return value;
    };

    it('over 16 KiB or deeper than 8 levels is refused with invalid_event', async () => {
      const { t, tenant } = suite.current;
      const padding = (bytes: number) => ({ note: 'x'.repeat(bytes - '{"note":""}'.length) });
      await expectAllRefused([
        ['900 KB', 'POST', '/v1/aml/event', amlEvent({ metadata: padding(900_000) }), 'invalid_event'],
        [
          '16 KiB and one byte',
          'POST',
          '/v1/aml/event',
          amlEvent({ metadata: padding(16_385) }),
          'invalid_event',
        ],
        [
          'multi-byte text counts in bytes',
          'POST',
          '/v1/aml/event',
          amlEvent({ metadata: { note: 'é'.repeat(8_190) } }),
          'invalid_event',
        ],
        ['9 levels', 'POST', '/v1/aml/event', amlEvent({ metadata: nested(9) }), 'invalid_event'],
        [
          '9 levels through an array',
          'POST',
          '/v1/aml/event',
          amlEvent({ metadata: { a: [[[[[[[{}]]]]]]] } }),
          'invalid_event',
        ],
      ]);
      // 5,000 levels used to exhaust the stack of the request fingerprint (a 500).
      const deep = '{"d":'.repeat(5_000) + '{}' + '}'.repeat(5_000);
      const { metadata: _, ...rest } = amlEvent();
      const response = await t.inject({
        method: 'POST',
        url: '/v1/aml/event',
        headers: { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' },
        payload: `${JSON.stringify(rest).slice(0, -1)},"metadata":${deep}}`,
      });
      expect(expectRefused(response, 400, 'invalid_event').message).toContain('8 levels');
      expect(await storedRows(t.db)).toEqual(before);
    });

    it('of exactly 16 KiB and 8 levels is accepted', async () => {
      const exact = { note: 'x'.repeat(16_384 - '{"note":""}'.length) };
      expect(Buffer.byteLength(JSON.stringify(exact))).toBe(16_384);
      for (const [transactionId, metadata] of [
        ['meta-1', exact],
        ['meta-2', nested(8)],
      ] as const) {
        const response = await send(
          'POST',
          '/v1/aml/event',
          amlEvent({ transaction_id: transactionId, metadata }),
        );
        expect(response.statusCode, response.body).toBe(202);
      }
    });
  });

  describe('currencies', () => {
    it('that are not ISO 4217 codes are refused in every area', async () => {
      const cases: Case[] = ['ZZZ', 'usd', 'US'].flatMap((currency): Case[] => [
        ['set', 'POST', '/v1/limits', limit({ currency }), 'invalid_request'],
        ['check', 'POST', '/v1/limits/check', { user_id: 'p', amount_cents: 1, currency }, 'invalid_request'],
        ['commit', 'POST', '/v1/limits/commit', commit({ currency }), 'invalid_request'],
        ['kyc start', 'POST', '/v1/kyc/start', kycStart({ currency }), 'invalid_request'],
        ['withdrawal', 'POST', '/v1/kyc/withdrawal-completed', withdrawal({ currency }), 'invalid_request'],
        ['aml event', 'POST', '/v1/aml/event', amlEvent({ currency }), 'invalid_event'],
        [
          'aml screen',
          'POST',
          '/v1/aml/screen',
          {
            user_id: 'p',
            withdrawal_id: 'w',
            amount_cents: 1,
            currency,
            payment_method: 'card',
            destination_country: 'GB',
          },
          'invalid_event',
        ],
        ['fx rate', 'PUT', `/fx-rates/${currency}`, { usd_per_unit: 1.5 }, 'invalid_request'],
      ]);
      await expectAllRefused(cases);
      const body = (
        await send('POST', '/v1/limits/check', { user_id: 'p', amount_cents: 1, currency: 'ZZZ' })
      ).json();
      expect(body.message).toContain('ISO 4217');
    });

    it('an ISO code without an exchange rate keeps its answer: the area says the amount cannot be judged', async () => {
      const { t } = suite.current;
      // XTS is ISO 4217's code for testing: valid, and never given a rate.
      expectRefused(await send('POST', '/v1/aml/event', amlEvent({ currency: 'XTS' })), 400, 'invalid_event');
      expectRefused(
        await send('POST', '/v1/kyc/start', kycStart({ currency: 'XTS' })),
        400,
        'invalid_amount',
      );
      expect(await storedRows(t.db)).toEqual(before);
    });
  });
});
