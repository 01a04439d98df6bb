import { describe, expect, it } from 'vitest';
import { expectRefused } from './stored-rows.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';
import { DAY, HOUR } from '../helpers/units.js';

interface Exported {
  tenant_id: string;
  user_id: string;
  summary: string[];
  data: { table: string; source: string; kept: string; basis: string; rows: Record<string, unknown>[] }[];
  not_tied_to_a_player: { table: string }[];
}

/** A player's data export through the back office (docs/data.md), over a player with data in every area. */
describe("a player's data export", () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    const tenant = await t.createTenant({ environment: 'sandbox' });
    const other = await t.createTenant({ environment: 'sandbox' });
    const user = 'export-player';
    const iso = () => t.platform.clock.now().toISOString();
    const call = async (apiKey: string, method: 'POST' | 'PUT', url: string, body: object) => {
      const response = await t.api(apiKey, method, url, body);
      expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
      return response;
    };
    for (const apiKey of [tenant.apiKey, other.apiKey]) {
      await call(apiKey, 'POST', '/v1/limits', {
        user_id: user,
        limit_type: 'limit_daily',
        amount_cents: 50_000,
        currency: 'USD',
        requested_at: iso(),
      });
    }
    await call(tenant.apiKey, 'POST', '/v1/exclusions', {
      user_id: user,
      duration: 'duration_6m',
      email: 'export.player@example.com',
    });
    const checked = await call(tenant.apiKey, 'POST', '/v1/limits/check', {
      user_id: user,
      amount_cents: 1_000,
      currency: 'USD',
    });
    expect(checked.json().allowed).toBe(true);
    await call(tenant.apiKey, 'POST', '/v1/limits/commit', {
      user_id: user,
      transaction_id: 'dep-1',
      amount_cents: 1_000,
      currency: 'USD',
      committed_at: iso(),
    });
    for (const [i, event_type] of ['deposit', 'wager'].entries()) {
      await call(tenant.apiKey, 'POST', '/v1/aml/event', {
        user_id: user,
        event_type,
        transaction_id: `tx-${i}`,
        amount_cents: 1_000,
        currency: 'USD',
        metadata: {},
        occurred_at: iso(),
      });
    }
    await call(tenant.apiKey, 'POST', '/v1/sanctions/screen', {
      user_id: user,
      first_name: 'Ada',
      last_name: 'Exported',
      date_of_birth: '1980-02-03',
      nationality: 'GB',
      email: 'export.player@example.com',
    });
    await call(tenant.apiKey, 'POST', '/v1/time-outs', { user_id: user, duration: 'duration_24h' });
    await t.advance(HOUR);
    return { t, tenant, other, user };
  });

  const exportOf = (tenantId: string, userId: string) =>
    suite.current.t.backoffice('POST', `/tenants/${tenantId}/players/${userId}/export`);

  it("holds every kind of data the player has at the tenant, each with its source and retention, and nothing of another tenant's", async () => {
    const { tenant, other, user } = suite.current;
    const response = await exportOf(tenant.tenantId, user);
    expect(response.statusCode, response.body).toBe(200);
    const exported = response.json<Exported>();
    expect(exported).toMatchObject({ tenant_id: tenant.tenantId, user_id: user });
    const tables = Object.fromEntries(exported.data.map((d) => [d.table, d]));
    expect(Object.keys(tables).sort()).toEqual(
      [
        'audit_log',
        'aml_events',
        'aml_event_keys',
        'deposit_limits',
        'deposits',
        'events',
        'exclusions',
        'limit_reservations',
        'sanctions_screens',
        'time_outs',
      ].sort(),
    );
    expect(tables['aml_events']!.rows.map((r) => r['event_type']).sort()).toEqual(['deposit', 'wager']);
    expect(tables['sanctions_screens']!.rows[0]).toMatchObject({
      first_name: 'Ada',
      last_name: 'Exported',
      email: 'export.player@example.com',
    });
    expect(tables['aml_events']!).toMatchObject({
      source: 'POST /v1/aml/event',
      kept: '5 years from relationship end, then pseudonymised',
    });
    expect(tables['aml_events']!.basis).toContain('Money Laundering Regulations 2017');
    // Only this tenant's: the other operator's limit of the same user id is not in it.
    expect(tables['deposit_limits']!.rows.map((r) => r['tenant_id'])).toEqual([tenant.tenantId]);
    expect(JSON.stringify(exported)).not.toContain(other.tenantId);
    expect(exported.summary[0]).toMatch(
      /^Data held on .* about user export-player of tenant .*: 10 kinds, \d+ records\.$/,
    );
    expect(exported.summary).toContain(
      'Every transaction event: 2 records, kept 5 years from relationship end, then pseudonymised.',
    );
    expect(exported.not_tied_to_a_player.map((n) => n.table)).toContain('geo_audit_log');
  });

  it('is audited, with the tables exported and none of the data', async () => {
    const { t, tenant, user } = suite.current;
    expect((await exportOf(tenant.tenantId, user)).statusCode).toBe(200);
    const audit = await t.backoffice('GET', `/tenants/${tenant.tenantId}/audit-log`);
    expect(audit.statusCode, audit.body).toBe(200);
    const entries = audit
      .json<{ entries: { action: string; details: Record<string, unknown> }[] }>()
      .entries.filter((e) => e.action === 'player.data_exported');
    expect(entries.length).toBeGreaterThanOrEqual(1);
    expect(entries[0]!.details).toMatchObject({
      user_id: user,
      tables: expect.arrayContaining(['aml_events']),
    });
    expect(JSON.stringify(entries[0])).not.toContain('Exported');
  });

  it('answers an unknown player or tenant 404 in the error shape', async () => {
    const { tenant } = suite.current;
    expectRefused(await exportOf(tenant.tenantId, 'nobody-here'), 404, 'player_not_found');
    expectRefused(await exportOf('ten_unknown', 'export-player'), 404, 'tenant_not_found');
  });
});

/** A contact's data export (an email or a phone in the register), across tenants, through the back office. */
describe("a contact's data export", () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    const tenants = [await t.createTenant(), await t.createTenant()];
    for (const [i, tenant] of tenants.entries()) {
      const excluded = await t.api(tenant.apiKey, 'POST', '/v1/exclusions', {
        user_id: `contact-player-${i}`,
        duration: 'duration_6m',
        // The same mailbox written two ways: the register's canonical form makes it one contact.
        email: i === 0 ? 'Jane.Doe+casino@googlemail.com' : 'janedoe@gmail.com',
      });
      expect(excluded.statusCode, excluded.body).toBe(201);
    }
    await t.advance(60);
    return { t, tenants };
  });

  const exportOf = (body: object) => suite.current.t.backoffice('POST', '/contacts/export', body);

  it("holds every row of the contact in any of its forms, at every tenant, and is audited with the contact's hashes", async () => {
    const { t, tenants } = suite.current;
    const response = await exportOf({ email: 'JANE.DOE@gmail.com' });
    expect(response.statusCode, response.body).toBe(200);
    const exported = response.json<{
      email: string;
      summary: string[];
      data: { table: string; rows: { tenant_id?: string }[] }[];
    }>();
    expect(exported.email).toBe('jane.doe@gmail.com');
    const exclusions = exported.data.find((d) => d.table === 'exclusions')!;
    expect(exclusions.rows.map((r) => r.tenant_id).sort()).toEqual(tenants.map((x) => x.tenantId).sort());
    expect(exported.summary[0]).toMatch(
      /^Data held on .* about jane\.doe@gmail\.com: \d+ kinds, \d+ records\.$/,
    );

    const audit = await t.backoffice('GET', '/audit-log');
    const entry = audit
      .json<{ entries: { action: string; details: Record<string, unknown> }[] }>()
      .entries.find((e) => e.action === 'contact.data_exported')!;
    expect(entry.details).toMatchObject({ email_hash: expect.any(String), phone_hash: null });
    expect(JSON.stringify(entry)).not.toContain('gmail');
  });

  it('answers an unknown contact 404, and no or a bad contact 400, in the error shape', async () => {
    expectRefused(await exportOf({ phone: '+14155552671' }), 404, 'contact_not_found');
    expectRefused(await exportOf({}), 400, 'invalid_payload');
    expectRefused(await exportOf({ email: 'not-an-email' }), 400, 'invalid_payload');
  });
});

/**
 * An exclusion that has ended is still held (6 years from its end) and so still exported: the export finds it by
 * each of its contacts, as the register stored them.
 */
describe("a contact's data export of an ended exclusion", () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    const tenant = await t.createTenant();
    const excluded = await t.api(tenant.apiKey, 'POST', '/v1/exclusions', {
      user_id: 'ended-player',
      duration: 'duration_6m',
      email: 'Ended.Player+bets@Example.com',
      phone: '+14155552671',
    });
    expect(excluded.statusCode, excluded.body).toBe(201);
    // Past its six months: the expiry job ends it.
    await t.advance(200 * DAY);
    await t.deliverWebhooks();
    return { t, tenant };
  });

  const exclusionsOf = async (body: object) => {
    const response = await suite.current.t.backoffice('POST', '/contacts/export', body);
    expect(response.statusCode, response.body).toBe(200);
    return response
      .json<{ data: { table: string; rows: Record<string, unknown>[] }[] }>()
      .data.find((d) => d.table === 'exclusions')?.rows;
  };

  it.each([
    ['the email as registered', { email: 'Ended.Player+bets@Example.com' }],
    ['the email in another form of the same mailbox', { email: 'ended.player@example.com' }],
    ['the phone', { phone: '+14155552671' }],
  ])('finds the expired exclusion by %s', async (_, contact) => {
    const rows = await exclusionsOf(contact);
    expect(rows).toEqual([
      expect.objectContaining({
        tenant_id: suite.current.tenant.tenantId,
        user_id: 'ended-player',
        status: 'expired',
        phone: '+14155552671',
      }),
    ]);
  });
});
