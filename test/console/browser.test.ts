import { expect, it } from 'vitest';
import { AmlDriver } from '../../src/areas/aml/aml.test-support.js';
import { usd } from '../helpers/units.js';
import { SanctionsDriver } from '../../src/areas/sanctions/sanctions.test-support.js';
import { describeWithBrowser, launchBrowser } from '../helpers/browser.js';
import { useSuite } from '../helpers/suite.js';
import { mailedSetupPath } from '../helpers/staff-driver.js';
import { ConsoleUser, type Credentials } from './browser-support.js';

/**
 * The "Must show" in real Chromium: staff set up and sign in with password and TOTP, work the queues with
 * the keyboard and the mouse, and a second member of staff approves the four-eyes decisions; the tenant's webhooks
 * follow the approval, and the audit log names both people. Every page is checked (axe, CSP, console) and
 * photographed into test-artifacts/console. The tests run in order: each flow uses the staff the first one made.
 */
// A person's whole flow through real pages: minutes on a loaded machine, not the unit tests' 30 seconds.
describeWithBrowser('console in a browser', { timeout: 180_000 }, () => {
  const suite = useSuite(async (own) => {
    const d = own(await SanctionsDriver.start());
    // Chromium reaches the service over loopback, as staff would over the network.
    const baseUrl = await d.t.listen();
    const browser = own(await launchBrowser());
    return { d, browser, baseUrl };
  });
  const names = new Set<string>();
  const people = {
    admin: {
      email: 'ada.admin@compliance.example',
      displayName: 'Ada Admin',
      password: 'admin passphrase 1',
    },
    secondAdmin: {
      email: 'bo.admin@compliance.example',
      displayName: 'Bo Admin',
      password: 'admin passphrase 2',
    },
    reviewer: {
      email: 'rita.reviewer@compliance.example',
      displayName: 'Rita Reviewer',
      password: 'reviewer passphrase 1',
    },
    supervisor: {
      email: 'sam.supervisor@compliance.example',
      displayName: 'Sam Supervisor',
      password: 'supervisor passphrase 1',
    },
  } satisfies Record<string, Credentials>;
  const windows: Partial<Record<keyof typeof people, ConsoleUser>> = {};

  /** A member of staff's own browser window, opened once and kept (their session lives in it). */
  const at = async (who: keyof typeof people): Promise<ConsoleUser> => {
    const { d, browser, baseUrl } = suite.current;
    windows[who] ??= suite.own(await ConsoleUser.open(d.t, browser, baseUrl, people[who], names));
    return windows[who];
  };

  it('two admins set up from their mail; one creates a reviewer and proposes a supervisor, the other approves', async () => {
    const { d } = suite.current;
    // The bootstrap: the token creates the first two admins, whose links go to them by mail, never in the answer.
    for (const [who, names] of [
      ['admin', { form: 'setup', done: 'setup-done' }],
      ['secondAdmin', { form: 'team-setup-second-admin', done: 'team-setup-done-second-admin' }],
    ] as const) {
      const created = await d.t.backoffice('POST', '/staff', {
        email: people[who].email,
        display_name: people[who].displayName,
        role: 'admin',
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json()).not.toHaveProperty('setup_path');
      await (await at(who)).setUp(await mailedSetupPath(d.t, people[who].email), names);
    }
    const admin = await at('admin');

    await admin.goto('/console/login', 'sign-in');
    // A keyboard user sees where they are: the first Tab's target has a focus ring.
    await admin.page.keyboard.press('Tab');
    const focused = await admin.focused();
    expect(focused.tag).not.toBe('BODY');
    expect(focused.outlineStyle).not.toBe('none');
    await admin.signIn({ form: 'team-sign-in-admin', landing: 'team-dashboard' });

    await admin.nav('Staff', 'team-staff');
    const notices = {
      reviewer: 'created: the setup link is mailed to them',
      supervisor: 'proposed: a second admin must approve it before the setup link is mailed',
    };
    for (const role of ['reviewer', 'supervisor'] as const) {
      await admin.page.getByLabel('Role', { exact: true }).selectOption(role);
      await admin.submit(
        { Email: people[role].email, 'Display name': people[role].displayName },
        'Create account',
        `team-staff-created-${role}`,
      );
      await expect(admin.page.getByRole('status').textContent()).resolves.toContain(notices[role]);
      // The admin never sees a setup link.
      expect(await admin.page.locator('main').textContent()).not.toContain('/console/setup/');
    }
    const rows = admin.page.locator('tbody tr');
    for (const role of ['reviewer', 'supervisor'] as const) {
      await expect
        .soft(rows.filter({ hasText: people[role].email }).locator('td').nth(2).textContent())
        .resolves.toBe(role);
    }
    // The proposer cannot approve their own proposal: the button is not theirs.
    expect(await admin.button(`Approve for ${people.supervisor.email}`).count()).toBe(0);
    await admin.signOut('team-signed-out');

    const second = await at('secondAdmin');
    await second.signIn({ form: 'team-sign-in-second-admin', landing: 'team-dashboard-second-admin' });
    await second.nav('Staff', 'team-staff-to-approve');
    await second.follow(second.button(`Approve for ${people.supervisor.email}`), 'team-staff-approved');
    await expect(second.page.getByRole('status').textContent()).resolves.toContain('Approved');
    expect(
      await second.page.locator('tbody tr').filter({ hasText: people.supervisor.email }).textContent(),
    ).toMatch(new RegExp(`invited[\\s\\S]*approved by\\s+${people.secondAdmin.displayName}`));
    await second.signOut('team-signed-out-second-admin');

    for (const role of ['reviewer', 'supervisor'] as const) {
      const person = await at(role);
      const link = await mailedSetupPath(d.t, people[role].email);
      await person.setUp(link, { form: `team-setup-${role}`, done: `team-setup-done-${role}` });
    }
  });

  it('sanctions: the reviewer proposes "confirm" from the keyboard; the webhooks fire on the supervisor’s approval', async () => {
    const { d } = suite.current;
    // The sandbox matcher hits last name TestHit; the older hit is due first.
    const older = d.person({ last_name: 'TestHit' });
    const oldCase = (await d.screen(older)).json<{ case_id: string }>().case_id;
    await d.t.advance(60);
    await d.screen(d.person({ last_name: 'TestHit' }));

    const reviewer = await at('reviewer');
    await reviewer.signIn(
      { form: 'sanctions-sign-in-reviewer', landing: 'sanctions-queue' },
      '/console/queues/sanctions',
    );
    await reviewer.page.keyboard.press('j');
    expect(await reviewer.page.locator('tbody tr').first().getAttribute('aria-selected')).toBe('true');
    // The selected row is a state of the page of its own: checked too.
    await reviewer.check('sanctions-queue-selected');
    await reviewer.pressToNavigate('Enter', 'sanctions-case');
    expect(reviewer.at).toBe(`/console/sanctions/${oldCase}`);
    await reviewer.pressToNavigate('t', 'sanctions-case-taken');
    expect(await reviewer.page.getByText('Assigned to:').textContent()).toContain('you');

    await reviewer.page.getByLabel('Confirm match (needs a second approver)').check();
    await reviewer.submit(
      { Reason: 'date of birth and nationality agree with the listed entry' },
      'Submit decision',
      'sanctions-case-proposed',
    );
    await expect(reviewer.page.getByRole('status').textContent()).resolves.toContain('Confirmation proposed');
    expect(await reviewer.page.getByText('A second member of staff must approve').count()).toBe(1);
    expect(await reviewer.button('Approve').count()).toBe(0);
    expect(await d.webhooks('sanctions.confirmed', older.user_id!)).toEqual([]);
    expect(await d.webhooks('sanctions.account_frozen', older.user_id!)).toEqual([]);

    const supervisor = await at('supervisor');
    await supervisor.signIn(
      { form: 'sanctions-sign-in-supervisor', landing: 'sanctions-approvals' },
      '/console/approvals',
    );
    const proposal = supervisor.page.locator('tbody tr').filter({ hasText: oldCase });
    expect(await proposal.textContent()).toContain(people.reviewer.displayName);
    await supervisor.follow(supervisor.link(oldCase), 'sanctions-case-to-approve');
    await supervisor.follow(supervisor.button('Approve'), 'sanctions-case-approved');
    await expect(supervisor.page.getByRole('status').textContent()).resolves.toContain('Decision approved');

    const confirmed = await d.webhooks('sanctions.confirmed', older.user_id!);
    const frozen = await d.webhooks('sanctions.account_frozen', older.user_id!);
    expect(confirmed.map((e) => e.data.case_id)).toEqual([oldCase]);
    expect(frozen.map((e) => e.data.case_id)).toEqual([oldCase]);

    await supervisor.auditOfTenant(d.tenant.tenantId, {
      all: 'sanctions-audit-all',
      filtered: 'sanctions-audit',
    });
    expect(await supervisor.auditRow('sanctions.decision_proposed', oldCase)).toContain(
      people.reviewer.displayName,
    );
    expect(await supervisor.auditRow('sanctions.decision_approved', oldCase)).toContain(
      people.supervisor.displayName,
    );
  });

  it('AML: the reviewer proposes an escalation; aml.escalated is sent only after the supervisor approves', async () => {
    const { d } = suite.current;
    const aml = new AmlDriver(d.t, d.tenant, d.receiver);
    const user = aml.newUser();
    // five deposits within the hour open a case.
    for (const seconds of [-240, -180, -120, -60, 0])
      await aml.event(user, 'deposit', usd(50), { at: seconds });
    await aml.pass();
    const caseId = (await aml.cases(user)).cases[0]!.case_id;

    const reviewer = await at('reviewer');
    await reviewer.nav('AML cases', 'aml-queue');
    await reviewer.follow(reviewer.link(caseId), 'aml-case');
    await reviewer.follow(reviewer.button('Take this case'), 'aml-case-taken');
    await reviewer.page
      .getByLabel('Escalate for a suspicious activity report (needs a second approver)')
      .check();
    await reviewer.submit(
      { Reason: 'five deposits in an hour look like structuring' },
      'Submit decision',
      'aml-case-proposed',
    );
    expect(await reviewer.button('Approve').count()).toBe(0);
    await aml.pass();
    expect(aml.received('aml.escalated', user)).toEqual([]);

    const supervisor = await at('supervisor');
    await supervisor.nav('Approvals', 'aml-approvals');
    await supervisor.follow(supervisor.link(caseId), 'aml-case-to-approve');
    expect(await supervisor.page.locator('#proposal-heading + dl').textContent()).toContain(
      people.reviewer.displayName,
    );
    await supervisor.follow(supervisor.button('Approve'), 'aml-case-approved');
    await aml.pass();
    expect(aml.received('aml.escalated', user).map((e) => e.data.case_id)).toEqual([caseId]);

    // The search form was used in the sanctions flow; its URL is the same search.
    await supervisor.goto(`/console/audit?tenant=${d.tenant.tenantId}`, 'aml-audit');
    expect(await supervisor.auditRow('aml.decision_proposed', caseId)).toContain(people.reviewer.displayName);
    expect(await supervisor.auditRow('aml.decision_approved', caseId)).toContain(
      people.supervisor.displayName,
    );
  });

  it('KYC: the reviewer approves a check awaiting review and the tenant receives kyc.approved', async () => {
    const { d } = suite.current;
    const userId = 'kyc-browser-player';
    const started = await d.t.api(d.tenant.apiKey, 'POST', '/v1/kyc/start', {
      user_id: userId,
      email: 'player@example.com',
      phone: '+15555550100',
      withdrawal_amount_cents: 30_000,
      currency: 'USD',
      withdrawal_id: `wd-${userId}`,
    });
    expect(started.statusCode, started.body).toBe(201);
    const { kyc_check_id: checkId, vendor_access_token: token } = started.json();
    // The sandbox vendor's submit without an automatic verdict leaves the check pending review.
    for (const step of ['begin', 'submit'])
      await d.t.inject({ method: 'POST', url: `/v1/kyc/sandbox-vendor/${token}/${step}` });

    const reviewer = await at('reviewer');
    await reviewer.nav('KYC reviews', 'kyc-queue');
    await reviewer.follow(reviewer.link(checkId), 'kyc-case');
    expect(await reviewer.page.locator('main').textContent()).toContain('awaiting manual review');
    await reviewer.page.getByLabel('Approve', { exact: true }).check();
    await reviewer.submit({ Reason: 'documents checked by hand' }, 'Submit decision', 'kyc-case-approved');
    expect(await reviewer.page.locator('main').textContent()).toMatch(/approved by\s+Rita Reviewer/);

    await d.t.deliverWebhooks();
    const approved = d.receiver
      .verified(d.tenant.signingSecret)
      .filter((e) => e.event === 'kyc.approved' && e.data.user_id === userId);
    expect(approved).toHaveLength(1);
  });

  it("a permanent exclusion's void: the reviewer proposes it on the row's page, the supervisor approves it there", async () => {
    const { d } = suite.current;
    const userId = 'void-browser-player';
    const email = 'void-browser-player@example.com';
    const registered = await d.t.api(d.tenant.apiKey, 'POST', '/v1/exclusions', {
      user_id: userId,
      duration: 'duration_permanent',
      email,
      reason: 'self_initiated',
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const exclusionId = registered.json<{ exclusion_id: string }>().exclusion_id;

    // The reviewer reaches the row from the player's page and proposes its void, with a reason.
    const reviewer = await at('reviewer');
    await reviewer.goto(`/console/players/${d.tenant.tenantId}/${userId}`, 'void-player');
    await reviewer.follow(reviewer.link(exclusionId), 'void-row');
    await reviewer.submit(
      { 'Why the row was registered in error': 'the agent registered the wrong player' },
      'Propose the void',
      'void-proposed',
    );
    await expect(reviewer.page.getByRole('status').textContent()).resolves.toContain('proposed');
    expect(await reviewer.button('Approve').count()).toBe(0);
    await d.t.deliverWebhooks();
    expect(await d.webhooks('exclusion.voided', userId)).toEqual([]);
    const stillExcluded = await d.t.api(d.tenant.apiKey, 'GET', `/v1/exclusions/check?email=${email}`);
    expect(stillExcluded.json()).toMatchObject({ is_excluded: true, exclusion_id: exclusionId });

    // The supervisor finds it among the pending approvals and approves it on the row's page.
    const supervisor = await at('supervisor');
    await supervisor.nav('Approvals', 'void-approvals');
    const pending = supervisor.page.locator('tbody tr').filter({ hasText: exclusionId });
    expect(await pending.textContent()).toContain('Void the permanent exclusion');
    expect(await pending.textContent()).toContain(people.reviewer.displayName);
    await supervisor.follow(supervisor.link(exclusionId), 'void-row-to-approve');
    await supervisor.follow(supervisor.button('Approve'), 'void-approved');
    await expect(supervisor.page.getByRole('status').textContent()).resolves.toContain('approved');
    expect(await supervisor.page.locator('main').textContent()).toMatch(
      new RegExp(
        `voided[\\s\\S]*${people.reviewer.displayName}, approved by ${people.supervisor.displayName}`,
      ),
    );

    const voided = await d.webhooks('exclusion.voided', userId);
    expect(voided.map((e) => e.data.exclusion_id)).toEqual([exclusionId]);
    const free = await d.t.api(d.tenant.apiKey, 'GET', `/v1/exclusions/check?email=${email}`);
    expect(free.json()).toEqual({ is_excluded: false });
  });

  it('every other page, as the admin', async () => {
    const { d } = suite.current;
    const admin = await at('admin');
    await admin.signIn({ form: 'pages-sign-in', landing: 'dashboard' });
    await admin.nav('AML cases', 'queue-aml');
    await admin.nav('KYC reviews', 'queue-kyc');
    await admin.nav('Approvals', 'approvals');
    // The newer sanctions hit still awaits a decision: the player page is one link from its case.
    await admin.nav('Sanctions hits', 'queue-sanctions');
    await admin.follow(admin.page.locator('tbody tr a').first(), 'sanctions-case-as-admin');
    await admin.follow(admin.link('Everything about this player'), 'player');
    await admin.nav('Tenants', 'tenants');
    await admin.follow(admin.link('Test Operator'), 'tenant-detail');
    expect(admin.at).toBe(`/console/tenants/${d.tenant.tenantId}`);
    await admin.nav('Countries', 'countries');
    await admin.nav('Regulator list', 'regulator');
    await admin.nav('Staff', 'staff');
    await admin.nav('Audit log', 'audit');
  });

  it('reports with their chart, and the regulator exports acknowledged from the page, as the admin', async () => {
    const { d } = suite.current;
    const registered = await d.t.api(d.tenant.apiKey, 'POST', '/v1/exclusions', {
      user_id: 'browser-excluded',
      duration: 'duration_30d',
      email: 'browser-excluded@example.com',
    });
    expect(registered.statusCode).toBe(201);
    // On to the next 00:15 UTC: the day's reports are compiled and its export made.
    const now = d.t.platform.clock.now();
    const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, 15);
    await d.t.advance(Math.ceil((next - now.getTime()) / 1000));
    const admin = await at('admin');
    await admin.signIn({ form: 'reports-sign-in', landing: 'reports-dashboard' });
    await admin.nav('Reports', 'reports');
    expect(await admin.page.getByRole('img', { name: /rows a day/ }).count()).toBe(1);
    await admin.follow(admin.page.locator('tbody tr a').first(), 'report-detail');
    await admin.nav('Regulator exports', 'regulator-exports');
    await admin.follow(
      admin.page.getByRole('button', { name: /^Acknowledge/ }).first(),
      'regulator-export-acknowledged',
    );
    expect(await admin.page.locator('main').textContent()).toMatch(
      /acknowledged: (1 exclusion is|\d+ exclusions are) now propagated/,
    );
  });
});
