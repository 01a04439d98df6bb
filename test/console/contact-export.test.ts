import { describe, expect, it } from 'vitest';
import {
  checkAccessibility,
  describeWithBrowser,
  launchBrowser,
  newStaffPage,
  screenshot,
} from '../helpers/browser.js';
import { postForm, staffOf } from '../helpers/staff-driver.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

const PAGE = '/console/data-requests';
const EXPORT = `${PAGE}/contact`;

/** Two tenants' players excluded with the same mailbox, written two ways (the register's canonical form is one). */
async function registerWithContact() {
  const t = await TestService.start();
  const tenants = [await t.createTenant(), await t.createTenant()];
  for (const [i, tenant] of tenants.entries()) {
    const excluded = await t.api(tenant.apiKey, 'POST', '/v1/exclusions', {
      user_id: `contact-player-${i}`,
      duration: 'duration_6m',
      email: i === 0 ? 'Jane.Doe+casino@googlemail.com' : 'janedoe@gmail.com',
    });
    expect(excluded.statusCode, excluded.body).toBe(201);
  }
  await t.advance(60);
  return { t, tenants };
}

/** The console's export of a contact's data (docs/data.md): an admin's form on the data requests page, a JSON file. */
describe("the console's data requests page: a contact's data", () => {
  const suite = useSuite(async (own) => {
    const { t, tenants } = await registerWithContact();
    own(t);
    return { t, tenants };
  });

  const view = async (role: 'admin' | 'auditor', url = PAGE) => {
    const { t } = suite.current;
    const session = await staffOf(t, role);
    return t.inject({ method: 'GET', url, headers: { cookie: `console_session=${session.cookie}` } });
  };

  it('gives an admin a JSON file of every row held about the contact at every tenant, audited with its hashes', async () => {
    const { t, tenants } = suite.current;
    const shown = await view('admin');
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain(`action="${EXPORT}"`);
    expect(shown.body).toContain(`href="${PAGE}"`);

    const file = await postForm(t, await staffOf(t, 'admin'), EXPORT, {
      email: 'JANE.DOE@gmail.com',
      phone: '',
    });
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(file.headers['content-disposition']).toBe('attachment; filename="contact-data.json"');
    const document = file.json<{
      email: string;
      summary: string[];
      data: { table: string; rows: { tenant_id?: string }[] }[];
    }>();
    expect(document.email).toBe('jane.doe@gmail.com');
    expect(document.summary[0]).toMatch(/about jane\.doe@gmail\.com: \d+ kinds, \d+ records\.$/);
    const exclusions = document.data.find((d) => d.table === 'exclusions')!;
    expect(exclusions.rows.map((r) => r.tenant_id).sort()).toEqual(tenants.map((x) => x.tenantId).sort());

    const audit = await t.backoffice('GET', '/audit-log');
    const entry = audit
      .json<{ entries: { action: string; actor: string; details: Record<string, unknown> }[] }>()
      .entries.find((e) => e.action === 'contact.data_exported')!;
    expect(entry.details).toMatchObject({ email_hash: expect.any(String), phone_hash: null });
    expect(JSON.stringify(entry)).not.toContain('gmail');
  });

  it('says nothing is held about an unknown contact, and names a contact it cannot read, on the page', async () => {
    const { t } = suite.current;
    const admin = await staffOf(t, 'admin');
    const unknown = await postForm(t, admin, EXPORT, { email: '', phone: '+14155552671' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.headers['content-type']).toContain('text/html');
    expect(unknown.body).toContain('Nothing is held about +14155552671.');

    const bad = await postForm(t, admin, EXPORT, { email: 'not-an-email', phone: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('<a href="#email">email is not a valid email address</a>');
    expect(bad.body).toContain('value="not-an-email"');
    const empty = await postForm(t, admin, EXPORT, { email: '', phone: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('email or phone is required');
  });

  it('is neither shown nor done for a member who may not handle data requests, nor without the form token', async () => {
    const { t } = suite.current;
    const exportsAudited = async () =>
      (await t.backoffice('GET', '/audit-log'))
        .json<{ entries: { action: string }[] }>()
        .entries.filter((e) => e.action === 'contact.data_exported').length;
    const audited = await exportsAudited();
    const console = await view('auditor', '/console');
    expect(console.statusCode).toBe(200);
    expect(console.body).not.toContain(PAGE);
    expect((await view('auditor')).statusCode).toBe(403);
    const refused = await postForm(t, await staffOf(t, 'auditor'), EXPORT, { email: 'janedoe@gmail.com' });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('Not allowed');
    expect(refused.body).not.toContain('gmail.com"');
    const forged = await postForm(
      t,
      await staffOf(t, 'admin'),
      EXPORT,
      { email: 'janedoe@gmail.com' },
      { csrf: false },
    );
    expect(forged.statusCode).toBe(403);
    expect(await exportsAudited()).toBe(audited);
  });
});

// The page in real Chromium, as an admin reaches it from the nav: no axe violation; the screenshot
// (test-artifacts/console/data-requests.png) is in docs/console.md.
describeWithBrowser('the data requests page in a browser', { timeout: 180_000 }, () => {
  const suite = useSuite(async (own) => {
    const { t } = await registerWithContact();
    own(t);
    const baseUrl = await t.listen();
    const browser = own(await launchBrowser());
    return { t, baseUrl, browser };
  });

  it('shows the contact form to an admin, and what is held about an unknown contact', async () => {
    const { t, baseUrl, browser } = suite.current;
    const session = await staffOf(t, 'admin');
    const window = suite.own(await newStaffPage(browser, baseUrl));
    await window.context.addCookies([{ name: 'console_session', value: session.cookie, url: baseUrl }]);
    const checked = async () => {
      expect(await checkAccessibility(window.page)).toEqual([]);
      expect(window.consoleErrors()).toEqual([]);
      expect(window.cspViolations()).toEqual([]);
    };
    expect((await window.page.goto('/console'))?.status()).toBe(200);
    const loaded = window.page.waitForEvent('load');
    await window.page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Data requests', exact: true })
      .click();
    await loaded;
    await checked();
    await screenshot(window.page, 'data-requests');

    await window.page.getByLabel('Phone', { exact: true }).fill('+14155552671');
    const answered = window.page.waitForEvent('load');
    await window.page.getByRole('button', { name: "Export this contact's data", exact: true }).click();
    await answered;
    await checked();
    expect(await window.page.getByRole('status').textContent()).toBe('Nothing is held about +14155552671.');
  });
});
