import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { DAY, HOUR } from '../../../test/helpers/units.js';
import { DEFAULT_POLICY, UK_FINANCIAL_PROFILE } from './safer-gambling.rules.js';
import { SaferGamblingDriver } from './safer-gambling.test-support.js';

/** A tenant's safer-gambling settings through the back office: defaults, overrides within bounds, refusals, audit. */
describe('safer gambling: tenant settings', () => {
  const suite = useSuite(() => SaferGamblingDriver.start(), { eachTest: (h) => h.newUser() });

  /** A tenant of its own, so each test starts from the defaults. */
  const freshTenant = () => suite.current.otherTenant();

  it('a tenant that set nothing has the defaults: UTC, the catalogue, the default policy, the UK profile', async () => {
    const h = await freshTenant();
    const response = await h.settings();
    expect(response.statusCode).toBe(200);
    const settings = response.json();
    expect(settings).toMatchObject({
      tenant_id: h.tenant.tenantId,
      time_zone: 'UTC',
      marker_overrides: {},
      policy: {},
      financial_profile: {},
      in_force: { policy: DEFAULT_POLICY, financial_profile: UK_FINANCIAL_PROFILE },
      updated_at: null,
      updated_by: null,
    });
    expect(settings.in_force.thresholds['SG-004']).toEqual({ min_failed: 5, window_seconds: DAY });
  });

  it('sets overrides within their bounds, keeps what a request leaves out, and audits each change', async () => {
    const h = await freshTenant();
    const first = await h.settings({
      time_zone: 'Europe/London',
      marker_overrides: { 'SG-004': { min_failed: 8 } },
      policy: { stop_deposits_at_high: true, interaction_due_hours: 12 },
    });
    expect(first.statusCode).toBe(200);
    const second = await h.settings({ financial_profile: { currency: 'EUR' } });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({
      time_zone: 'Europe/London',
      marker_overrides: { 'SG-004': { min_failed: 8 } },
      policy: { stop_deposits_at_high: true, interaction_due_hours: 12 },
      financial_profile: { currency: 'EUR' },
      in_force: {
        policy: { ...DEFAULT_POLICY, stop_deposits_at_high: true, interaction_due_hours: 12 },
        financial_profile: { currency: 'EUR', thresholds: UK_FINANCIAL_PROFILE.thresholds },
      },
      updated_at: h.now(),
      updated_by: 'backoffice',
    });
    expect(second.json().in_force.thresholds['SG-004'].min_failed).toBe(8);
    expect((await h.settings()).json()).toEqual(second.json());

    const log = await h.t.backoffice('GET', `/tenants/${h.tenant.tenantId}/audit-log`);
    const changes = log
      .json<{ entries: { action: string; details: object }[] }>()
      .entries.filter((e) => e.action === 'safer_gambling.settings_changed');
    expect(changes.map((e) => e.details)).toEqual([
      { financial_profile: { currency: 'EUR' } },
      {
        time_zone: 'Europe/London',
        marker_overrides: { 'SG-004': { min_failed: 8 } },
        policy: { stop_deposits_at_high: true, interaction_due_hours: 12 },
      },
    ]);
  });

  it('a policy takes effect for new requirements: an interaction due in the tenant’s hours', async () => {
    const h = await freshTenant();
    h.newUser();
    await h.settings({ policy: { interaction_due_hours: 6, overdue_after_hours: 2 } });
    await h.tripMarker('SG-002', 3);
    const dueAt = h.at(6 * HOUR);
    expect(await h.events('player.interaction_required')).toEqual([
      expect.objectContaining({ due_at: dueAt }),
    ]);
    await h.t.advance(8 * HOUR);
    expect(await h.events('player.interaction_overdue')).toEqual([
      expect.objectContaining({ due_at: dueAt }),
    ]);
  });

  describe('refusals, each naming what is wrong; nothing is saved', () => {
    it.each([
      [
        'a threshold beyond its bound',
        { marker_overrides: { 'SG-004': { min_failed: 21 } } },
        'SG-004 min_failed must be an integer from 3 to 20',
      ],
      [
        'a threshold below its bound',
        { marker_overrides: { 'SG-001': { min_deposits_usd_cents: 9_999 } } },
        'SG-001 min_deposits_usd_cents must be an integer from 10000 to 500000',
      ],
      [
        'a fixed window',
        { marker_overrides: { 'SG-004': { window_seconds: 3_600 } } },
        'SG-004 window_seconds must be an integer from 86400 to 86400',
      ],
      ['an unknown marker', { marker_overrides: { 'SG-999': { x: 1 } } }, 'SG-999 is not a marker'],
      [
        'an unknown threshold',
        { marker_overrides: { 'SG-002': { speed: 1 } } },
        'SG-002 has no threshold speed',
      ],
      ['an unknown time zone', { time_zone: 'Mars/Olympus' }, 'Mars/Olympus is not an IANA time zone'],
      ['marketing stopped only at high', { policy: { stop_marketing_from: 'high' } }, 'stop_marketing_from'],
      [
        'an interaction due after 73 hours',
        { policy: { interaction_due_hours: 73 } },
        'interaction_due_hours',
      ],
      [
        'a financial check twice',
        {
          financial_profile: {
            thresholds: [
              { level: 'light', window: 'rolling_30d', amount_cents: 10_000 },
              { level: 'light', window: 'rolling_30d', amount_cents: 20_000 },
            ],
          },
        },
        'light check over rolling_30d twice',
      ],
    ])('%s is 400 invalid_request', async (_, body, problem) => {
      const h = suite.current;
      const before = (await h.settings()).json();
      const response = await h.settings({ time_zone: 'Europe/Paris', ...body });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        error: 'invalid_request',
        message: expect.stringContaining(problem),
        request_id: expect.any(String),
      });
      expect((await h.settings()).json()).toEqual(before);
    });

    it('an unknown tenant is 404 tenant_not_found', async () => {
      const h = suite.current;
      for (const response of [await h.settings(undefined, 'ten_nope'), await h.settings({}, 'ten_nope')])
        expect([response.statusCode, response.json().error]).toEqual([404, 'tenant_not_found']);
    });

    it('a reviewer may read the settings but not change them', async () => {
      const h = suite.current;
      const url = `/tenants/${h.tenant.tenantId}/safer-gambling`;
      expect((await h.t.asStaff('reviewer', 'GET', url)).statusCode).toBe(200);
      expect((await h.t.asStaff('reviewer', 'PUT', url, { time_zone: 'UTC' })).statusCode).toBe(403);
    });
  });
});
