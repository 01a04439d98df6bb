import { describe, expect, it } from 'vitest';
import {
  createStaffMember,
  mailedSetupPath,
  postForm,
  staffTeam,
  signInAs,
  asStaff,
  type StaffSession,
} from '../helpers/staff-driver.js';
import { RETRY_JITTER, RETRY_SCHEDULE_SECONDS } from '../../src/platform/webhooks/dispatcher.js';
import { useSuite } from '../helpers/suite.js';
import { TestService, type TestTenant } from '../helpers/test-service.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

/** The admins' operations pages: tenants, country tiers, the regulator list and staff accounts. */

const suite = useSuite(async (own) => {
  const t = own(await TestService.start());
  const receiver = own(await WebhookReceiver.start());
  const admin = await signInAs(t, await createStaffMember(t, 'admin'));
  const reviewer = await signInAs(t, await createStaffMember(t, 'reviewer'));
  const auditor = await signInAs(t, await createStaffMember(t, 'auditor'));
  const tenant = await t.createTenant({ webhookUrl: receiver.url, name: 'Receiving Operator' });
  return { t, receiver, admin, reviewer, auditor, tenant };
});

const get = (session: StaffSession, url: string) =>
  suite.current.t.inject({ method: 'GET', url, headers: { cookie: `console_session=${session.cookie}` } });

/** The text of the element with this id, as the page shows it. */
function shown(body: string, id: string): string {
  const match = new RegExp(`id="${id}">([^<]+)<`).exec(body);
  if (!match) throw new Error(`no #${id} in the page`);
  return match[1]!.trim();
}

/** The forms that change something (every page has the sign-out form, which is not one). */
const changeForms = (body: string) =>
  [...body.matchAll(/<form[^>]*action="([^"]+)"/g)].map((m) => m[1]).filter((a) => a !== '/console/logout');

async function newTenant(name: string): Promise<{ tenantId: string; apiKey: string }> {
  const { t, admin } = suite.current;
  const created = await postForm(t, admin, '/console/tenants', { name, environment: 'sandbox' });
  expect(created.statusCode).toBe(200);
  const apiKey = shown(created.body, 'api-key');
  const tenantId = /href="\/console\/tenants\/(ten_[0-9a-f]+)"/.exec(created.body)![1]!;
  return { tenantId, apiKey };
}

describe('tenants', () => {
  it('an admin creates a tenant and sees its key and signing secret once', async () => {
    const { t, admin } = suite.current;
    const created = await postForm(t, admin, '/console/tenants', {
      name: 'Acme Gaming',
      environment: 'sandbox',
    });
    expect(created.statusCode).toBe(200);
    const apiKey = shown(created.body, 'api-key');
    expect(apiKey).toMatch(/^svc_sk_test_/);
    expect(shown(created.body, 'signing-secret')).toMatch(/^whsec_/);
    expect((await t.api(apiKey, 'GET', '/v1/geo/countries')).statusCode).toBe(200);

    const list = await get(admin, '/console/tenants');
    expect(list.body).toContain('Acme Gaming');
    const tenantId = /href="\/console\/tenants\/(ten_[0-9a-f]+)">Acme Gaming/.exec(list.body)![1]!;
    const detail = await get(admin, `/console/tenants/${tenantId}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain(apiKey.slice(0, 20));
    expect(list.body + detail.body).not.toContain(apiKey);
  });

  it('an admin issues a key, sees it once, and revokes it', async () => {
    const { t, admin } = suite.current;
    const { tenantId } = await newTenant('Keys Operator');
    const issued = await postForm(t, admin, `/console/tenants/${tenantId}/keys`, { role: 'admin' });
    expect(issued.statusCode).toBe(200);
    const key = shown(issued.body, 'api-key');
    expect((await t.api(key, 'GET', '/v1/geo/countries')).statusCode).toBe(200);

    const prefix = key.slice(0, 20);
    const detail = await get(admin, `/console/tenants/${tenantId}`);
    expect(detail.body).not.toContain(key);
    expect(changeForms(detail.body)).toContain(`/console/tenants/${tenantId}/keys/${prefix}/revoke`);

    const revoked = await postForm(t, admin, `/console/tenants/${tenantId}/keys/${prefix}/revoke`, {});
    expect(revoked.statusCode).toBe(303);
    expect((await t.api(key, 'GET', '/v1/geo/countries')).statusCode).toBe(401);
    const after = await get(admin, revoked.headers.location as string);
    expect(after.body).toContain(`Key ${prefix} revoked`);
    expect(changeForms(after.body)).not.toContain(`/console/tenants/${tenantId}/keys/${prefix}/revoke`);
  });

  it('an admin sets the webhook URL, pings it, sees the delivery log and rotates the signing secret', async () => {
    const { t, admin } = suite.current;
    // A receiver of its own: the suite's one counts what the country move sends to every tenant.
    const receiver = suite.own(await WebhookReceiver.start());
    const { tenantId } = await newTenant('Hooks Operator');
    const set = await postForm(t, admin, `/console/tenants/${tenantId}/webhook`, { url: receiver.url });
    expect(set.statusCode).toBe(303);
    const detail = await get(admin, `/console/tenants/${tenantId}`);
    expect(detail.body).toContain(`value="${receiver.url}"`);

    const rotated = await postForm(t, admin, `/console/tenants/${tenantId}/signing-secret`, {
      overlap_hours: '0',
    });
    expect(rotated.statusCode).toBe(200);
    const secret = shown(rotated.body, 'signing-secret');
    expect(secret).toMatch(/^whsec_/);
    expect(rotated.body).toContain('The old secret stopped signing at once.');

    expect((await postForm(t, admin, `/console/tenants/${tenantId}/webhook/ping`, {})).statusCode).toBe(303);
    await t.deliverWebhooks();
    const ping = receiver.received.filter((r) => r.envelope.event === 'ping' && r.body.includes(tenantId));
    expect(ping).toHaveLength(1);
    // Signed by the new secret only.
    const { Webhook } = await import('standardwebhooks');
    expect(() =>
      new Webhook(secret).verify(ping[0]!.body, ping[0]!.headers as Record<string, string>),
    ).not.toThrow();

    const log = await get(admin, `/console/tenants/${tenantId}`);
    const eventId = ping[0]!.envelope.event_id;
    expect(log.body).toContain(eventId);
    expect(changeForms(log.body)).toContain(`/console/tenants/${tenantId}/events/${eventId}/redeliver`);
    const again = await postForm(t, admin, `/console/tenants/${tenantId}/events/${eventId}/redeliver`, {});
    expect(again.statusCode).toBe(303);
    await t.deliverWebhooks();
    expect(receiver.received.filter((r) => r.envelope.event_id === eventId)).toHaveLength(2);
    // Not from another tenant's page.
    const other = suite.current.tenant.tenantId;
    const elsewhere = await postForm(t, admin, `/console/tenants/${other}/events/${eventId}/redeliver`, {});
    expect(elsewhere.statusCode).toBe(404);

    const recover = await postForm(t, admin, `/console/tenants/${tenantId}/webhook/recover`, {
      since: '2029-12-31T00:00',
    });
    expect(recover.statusCode).toBe(303);
    expect(decodeURIComponent(recover.headers.location as string).replace(/\+/g, ' ')).toContain(
      'since 2029-12-31 00:00 UTC queued again',
    );
  });

  it('an admin sets rate limits, the embed origins, the R-009 window and suspends and reinstates a tenant', async () => {
    const { t, admin } = suite.current;
    const { tenantId, apiKey } = await newTenant('Settings Operator');
    const base = `/console/tenants/${tenantId}`;
    expect((await postForm(t, admin, `${base}/rate-limits`, { default_per_minute: '250' })).statusCode).toBe(
      303,
    );
    expect((await postForm(t, admin, `${base}/aml-settings`, { r009_window_hours: '48' })).statusCode).toBe(
      303,
    );
    const origins = await postForm(t, admin, `${base}/embed-origins`, {
      origins: 'https://casino.example\r\nhttps://www.casino.example:8443',
    });
    expect(origins.statusCode).toBe(303);
    expect(
      (await postForm(t, admin, `${base}/embed-origins`, { origins: 'https://casino.example/x' })).statusCode,
    ).toBe(400);
    const detail = await get(admin, base);
    expect(detail.body).toContain('https://casino.example\nhttps://www.casino.example:8443</textarea>');
    expect(detail.body).toMatch(/name="default_per_minute"[^>]*value="250"/);
    expect(detail.body).toMatch(/name="r009_window_hours"[^>]*value="48"/);
    // A sandbox tenant is never cut over.
    expect(detail.body).toContain('Only live tenants are cut over');

    expect((await postForm(t, admin, `${base}/suspend`, {})).statusCode).toBe(303);
    expect((await t.api(apiKey, 'GET', '/v1/geo/countries')).statusCode).toBe(401);
    expect((await postForm(t, admin, `${base}/reinstate`, {})).statusCode).toBe(303);
    expect((await t.api(apiKey, 'GET', '/v1/geo/countries')).statusCode).toBe(200);
  });

  it('an admin cuts a live tenant over to production vendors per area', async () => {
    const { t, admin } = suite.current;
    const created = await postForm(t, admin, '/console/tenants', {
      name: 'Live Operator',
      environment: 'live',
    });
    const tenantId = /href="\/console\/tenants\/(ten_[0-9a-f]+)"/.exec(created.body)![1]!;
    const cut = await postForm(t, admin, `/console/tenants/${tenantId}/cutover`, {
      area_kyc: 'on',
      area_geo: 'on',
    });
    expect(cut.statusCode).toBe(303);
    const detail = await get(admin, cut.headers.location as string);
    expect(detail.body).toContain('Production vendors: geo, kyc.');
    expect(detail.body).toMatch(/id="cutover-geo"[^>]*checked/);
    expect(detail.body).not.toMatch(/id="cutover-sanctions"[^>]*checked/);
  });
});

describe('a destination disabled for failing', () => {
  // A service of its own: the clock runs past the whole retry schedule, which would end the suite's sessions.
  const own = useSuite(async (own) => {
    const t = own(await TestService.start());
    const receiver = own(await WebhookReceiver.start());
    const tenant = await t.createTenant({ webhookUrl: receiver.url, name: 'Failing Operator' });
    receiver.down = true;
    await t.backoffice('POST', `/tenants/${tenant.tenantId}/webhook/ping`);
    await t.deliverWebhooks();
    for (const wait of RETRY_SCHEDULE_SECONDS) {
      await t.advance(Math.ceil(wait * (1 + RETRY_JITTER)) + 1);
      await t.deliverWebhooks();
    }
    receiver.down = false;
    return { t, receiver, tenant };
  });

  it('is flagged in the list, and an admin enables it and what waited is sent', async () => {
    const { t, receiver, tenant } = own.current;
    const admin = await signInAs(t, await createStaffMember(t, 'admin'));
    const cookie = { cookie: `console_session=${admin.cookie}` };
    const list = await t.inject({ method: 'GET', url: '/console/tenants', headers: cookie });
    expect(list.body).toMatch(/Failing Operator[\s\S]*?badge breached">Disabled/);
    const base = `/console/tenants/${tenant.tenantId}`;
    expect(changeForms((await t.inject({ method: 'GET', url: base, headers: cookie })).body)).toContain(
      `${base}/webhook/enable`,
    );

    const before = receiver.received.length;
    const enabled = await postForm(t, admin, `${base}/webhook/enable`, {});
    expect(enabled.statusCode).toBe(303);
    const after = await t.inject({ method: 'GET', url: enabled.headers.location as string, headers: cookie });
    expect(after.body).toContain('Destination enabled; 1 event queued again');
    expect(changeForms(after.body)).not.toContain(`${base}/webhook/enable`);
    await t.deliverWebhooks();
    expect(receiver.received.length).toBe(before + 1);
    expect(receiver.received.at(-1)!.envelope.event).toBe('ping');
  });
});

describe('country tiers', () => {
  it('takes a reason from the list, previews the event, and sends exactly that event on the move', async () => {
    const { t, admin, receiver, tenant } = suite.current;
    // Tenants receive the reason: a code from the list, never words typed into the form.
    const page = await get(admin, '/console/countries');
    expect(page.body).toMatch(
      /<option value="licence_withdrawn"\s*>\s*A local licence was withdrawn or lapsed\s*<\/option>/,
    );
    const typed = await postForm(t, admin, '/console/countries/preview', {
      code: 'AQ',
      status: 'restricted',
      reason: 'Licence review',
    });
    expect(typed.statusCode).toBe(400);

    const preview = await postForm(t, admin, '/console/countries/preview', {
      code: 'AQ',
      status: 'restricted',
      reason: 'licence_withdrawn',
    });
    expect(preview.statusCode).toBe(200);
    expect(shown(preview.body, 'event-name')).toBe('geo.country_restricted');
    expect(preview.body).toContain('&quot;reason&quot;: &quot;licence_withdrawn&quot;');
    expect(changeForms(preview.body)).toEqual(['/console/countries/AQ']);
    // Nothing moved yet.
    await t.deliverWebhooks();
    expect(receiver.of('geo.country_restricted')).toHaveLength(0);

    const moved = await postForm(t, admin, '/console/countries/AQ', {
      code: 'AQ',
      status: 'restricted',
      reason: 'licence_withdrawn',
    });
    expect(moved.statusCode).toBe(303);
    await t.deliverWebhooks();
    const sent = receiver.of('geo.country_restricted').filter((e) => e.data.country_code === 'AQ');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.data).toMatchObject({
      previous_status: 'allowed',
      new_status: 'restricted',
      reason: 'licence_withdrawn',
    });
    const list = await t.api(tenant.apiKey, 'GET', '/v1/geo/countries');
    expect(list.json<{ countries: { code: string; status: string }[] }>().countries).toContainEqual(
      expect.objectContaining({ code: 'AQ', status: 'restricted' }),
    );
  });
});

describe('regulator list', () => {
  it('uploads two rows by pasted CSV and voids one', async () => {
    const { t, admin } = suite.current;
    const email = `regulator.${Date.now()}@players.example`;
    const csv = `email,phone,duration,environment\n${email},,7d,sandbox\n,+14155552671,duration_permanent,live\n`;
    const uploaded = await postForm(t, admin, '/console/regulator', { csv });
    expect(uploaded.statusCode, uploaded.body.match(/error-summary[\s\S]*?<\/ul>/)?.[0]).toBe(303);
    const list = await get(admin, uploaded.headers.location as string);
    expect(list.body).toContain('2 rows added, 0 already on the list');
    expect(list.body).toContain(email);
    expect(list.body).toContain('+14155552671');

    const id = new RegExp(
      `<code>(exc_[0-9a-f]+)</code></a>\\s*</td>\\s*<td>sandbox</td>\\s*<td>${email}`,
    ).exec(list.body)![1]!;
    const voided = await postForm(t, admin, `/console/regulator/${id}/void`, { reason: 'Typo in the email' });
    expect(voided.statusCode).toBe(303);
    const after = await get(admin, '/console/regulator');
    expect(after.body).toMatch(new RegExp(`${id}</code>[\\s\\S]*?voided[\\s\\S]*?Typo in the email`));
    expect(changeForms(after.body)).not.toContain(`/console/regulator/${id}/void`);
  });

  it('shows what is wrong with a CSV and keeps what was pasted', async () => {
    const { t, admin } = suite.current;
    const csv = 'email,phone,duration,environment\nsomeone@players.example,,forever,sandbox';
    const refused = await postForm(t, admin, '/console/regulator', { csv });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Line 2: duration must be one of');
    expect(refused.body).toContain('someone@players.example,,forever,sandbox</textarea>');
    const badPhone = await postForm(t, admin, '/console/regulator', {
      csv: 'email,phone,duration,environment\n,+1,24h,live',
    });
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.body).toContain('Line 2: phone is not a valid phone number');
  });

  it('pages the list 50 rows at a time, newest first', async () => {
    const { t, admin } = suite.current;
    const lines = Array.from(
      { length: 51 },
      (_, i) => `page.${i}.${Date.now()}@players.example,,24h,sandbox`,
    );
    const uploaded = await postForm(t, admin, '/console/regulator', {
      csv: ['email,phone,duration,environment', ...lines].join('\n'),
    });
    expect(uploaded.statusCode).toBe(303);
    const rowsOf = (body: string) =>
      [...body.matchAll(/<a href="\/console\/exclusions\/[^"]+"><code>(exc_[0-9a-f]+)<\/code><\/a>/g)].map(
        (m) => m[1]!,
      );
    const first = await get(admin, '/console/regulator');
    expect(rowsOf(first.body)).toHaveLength(50);
    const next = /rel="next" href="([^"]+)"/.exec(first.body)![1]!.replace(/&amp;/g, '&');
    const second = await get(admin, next);
    expect(second.statusCode).toBe(200);
    // Newest first with no row twice, and every pasted row on one of the two pages.
    const ids = [...rowsOf(first.body), ...rowsOf(second.body)];
    expect(ids).toEqual([...ids].sort().reverse());
    expect(new Set(ids).size).toBe(ids.length);
    for (const line of lines) expect(first.body + second.body).toContain(line.split(',')[0]);
  });
});

describe('staff accounts', () => {
  it('an admin creates a reviewer, whose setup link goes by mail and is never shown to the admin', async () => {
    const { t, admin } = suite.current;
    const email = `new.reviewer.${Date.now()}@compliance.example`;
    const created = await postForm(t, admin, '/console/staff', {
      email,
      display_name: 'New Reviewer',
      role: 'reviewer',
    });
    expect(created.statusCode).toBe(303);
    const page = await get(admin, created.headers.location as string);
    expect(page.body).toContain(`${email} (reviewer) created: the setup link is mailed to them`);
    // The link is in the invitee's mail (built from PUBLIC_URL), and on no page the admin sees.
    const path = await mailedSetupPath(t, email);
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', email)
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain(`${t.config.publicUrl}${path}`);
    expect(page.body).not.toContain(path);
    expect((await t.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    expect(page.body).toMatch(
      new RegExp(`${email}[\\s\\S]*?invited[\\s\\S]*?by ${admin.member.displayName}`),
    );
  });

  it('an admin or supervisor account waits for a second admin, on the staff page', async () => {
    const { t, admin } = suite.current;
    const second = (await staffTeam(t)).admins[1];
    const email = `new.supervisor.${Date.now()}@compliance.example`;
    const created = await postForm(t, admin, '/console/staff', {
      email,
      display_name: 'New Sup',
      role: 'supervisor',
    });
    const own = await get(admin, created.headers.location as string);
    expect(own.body).toContain('a second admin must approve it before the setup link is mailed');
    // The proposer sees the proposal but no way to approve it; the second admin approves from the page.
    expect(own.body).toContain('awaiting a second admin');
    const staffId = new RegExp(`id="(stf_[0-9a-f]+)">\\s*<td>${email}`).exec(own.body)![1]!;
    const approveAction = `/console/staff/${staffId}/proposal/approve`;
    expect(changeForms(own.body)).not.toContain(approveAction);
    expect(
      await t.db.selectFrom('mail_outbox').select('mail_id').where('to_address', '=', email).execute(),
    ).toEqual([]);
    expect(changeForms((await get(second, '/console/staff')).body)).toContain(approveAction);
    expect((await postForm(t, admin, approveAction, {})).statusCode).toBe(403);
    const approved = await postForm(t, second, approveAction, {});
    expect(approved.statusCode).toBe(303);
    const after = await get(second, '/console/staff');
    expect(after.body).toMatch(
      new RegExp(`${email}[\\s\\S]*?invited[\\s\\S]*?approved by ${second.member.displayName}`),
    );
    await mailedSetupPath(t, email);
  });

  it('disabling a member ends their session at once, in the console and the back office', async () => {
    const { t, admin } = suite.current;
    const member = await createStaffMember(t, 'reviewer');
    const session = await signInAs(t, member);
    expect((await get(session, '/console/tenants')).statusCode).toBe(200);

    const disabled = await postForm(t, admin, `/console/staff/${member.staffId}/disable`, {});
    expect(disabled.statusCode).toBe(303);
    const console = await get(session, '/console/tenants');
    expect(console.statusCode).toBe(303);
    expect(console.headers.location).toMatch(/^\/console\/login/);
    expect((await asStaff(t, session, 'GET', '/session')).statusCode).toBe(401);
    expect((await get(admin, '/console/staff')).body).toMatch(
      new RegExp(`${member.email}[\\s\\S]*?disabled`),
    );
  });
});

/** Every change the operations pages make, with a valid form: what a role without the right must not get. */
function everyPost(tenant: TestTenant, staffId: string): [string, Record<string, string>][] {
  const base = `/console/tenants/${tenant.tenantId}`;
  return [
    ['/console/tenants', { name: 'Refused Operator', environment: 'sandbox' }],
    [`${base}/keys`, { role: 'standard' }],
    [`${base}/keys/${tenant.apiKey.slice(0, 20)}/revoke`, {}],
    [`${base}/webhook`, { url: 'http://127.0.0.1:9/refused' }],
    [`${base}/webhook/enable`, {}],
    [`${base}/webhook/ping`, {}],
    [`${base}/webhook/recover`, { since: '2029-12-31T00:00' }],
    [`${base}/events/evt_0/redeliver`, {}],
    [`${base}/signing-secret`, { overlap_hours: '24' }],
    [`${base}/rate-limits`, { default_per_minute: '1' }],
    [`${base}/cutover`, {}],
    [`${base}/aml-settings`, { r009_window_hours: '1' }],
    [`${base}/embed-origins`, { origins: 'https://refused.example' }],
    [`${base}/suspend`, {}],
    [`${base}/reinstate`, {}],
    ['/console/countries/preview', { code: 'AQ', status: 'blocked', reason: 'correction' }],
    ['/console/countries/AQ', { code: 'AQ', status: 'blocked', reason: 'correction' }],
    ['/console/regulator', { csv: 'email,phone,duration,environment\nrefused@players.example,,7d,sandbox' }],
    ['/console/regulator/exc_0/void', { reason: 'refused' }],
    ['/console/staff', { email: 'refused@compliance.example', display_name: 'Refused', role: 'admin' }],
    [`/console/staff/${staffId}/disable`, {}],
    [`/console/staff/${staffId}/setup-link`, {}],
  ];
}

const PAGES = ['/console/tenants', '/console/countries', '/console/regulator', '/console/staff'];

describe('roles', () => {
  it('a reviewer reads every operations page without a form but the case work of voiding a row, and a POST changes nothing', async () => {
    const { t, reviewer, admin, tenant } = suite.current;
    // Voiding a register row is case work (decide_cases), as on the back-office API.
    const isVoid = (action: string | undefined) => /^\/console\/regulator\/[^/]+\/void$/.test(action ?? '');
    for (const url of [...PAGES, `/console/tenants/${tenant.tenantId}`]) {
      const response = await get(reviewer, url);
      expect(response.statusCode, url).toBe(200);
      expect(
        changeForms(response.body).filter((action) => !isVoid(action)),
        url,
      ).toEqual([]);
    }
    const before = await Promise.all(PAGES.map((url) => get(admin, url)));
    const tenantBefore = await t.backoffice('GET', `/tenants/${tenant.tenantId}`);
    for (const [url, fields] of everyPost(tenant, admin.member.staffId)) {
      const response = await postForm(t, reviewer, url, fields);
      if (isVoid(url)) {
        expect(response.statusCode, url).toBe(404);
        continue;
      }
      expect(response.statusCode, url).toBe(403);
      expect(response.body).toContain('Not allowed');
    }
    const after = await Promise.all(PAGES.map((url) => get(admin, url)));
    expect(after.map((r) => r.body)).toEqual(before.map((r) => r.body));
    expect((await t.backoffice('GET', `/tenants/${tenant.tenantId}`)).json()).toEqual(tenantBefore.json());
    expect((await t.api(tenant.apiKey, 'GET', '/v1/geo/countries')).statusCode).toBe(200);
  });

  it('an auditor gets 403 on every POST', async () => {
    const { t, auditor, admin, tenant } = suite.current;
    for (const [url, fields] of everyPost(tenant, admin.member.staffId)) {
      expect((await postForm(t, auditor, url, fields)).statusCode, url).toBe(403);
    }
    expect((await get(admin, '/console/staff')).body).not.toContain('refused@compliance.example');
  });
});
