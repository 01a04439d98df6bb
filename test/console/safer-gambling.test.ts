import { describe, expect, it } from 'vitest';
import {
  checkAccessibility,
  describeWithBrowser,
  launchBrowser,
  newStaffPage,
  screenshot,
} from '../helpers/browser.js';
import { SaferGamblingSeed } from '../../src/areas/safer-gambling/safer-gambling.staff.test-support.js';
import { TenantDriver } from '../helpers/tenant-driver.js';
import { createStaffMember, postForm, signInAs, type StaffSession } from '../helpers/staff-driver.js';
import { useSuite } from '../helpers/suite.js';
import { HOUR } from '../helpers/units.js';
import { playerPage, sectionRows } from './player-page.js';

/** The rows of the queue's table, each as its cells' text. */
function queueRows(body: string): string[][] {
  const tbody = /<tbody>([\s\S]*?)<\/tbody>/.exec(body)?.[1] ?? '';
  return [...tbody.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((cell) =>
      cell[1]!
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );
}

const playerHref = (tenantId: string, userId: string) => `/console/players/${tenantId}/${userId}`;

describe("console: the staff's safer-gambling queue and the player's markers", () => {
  // A service of its own per test: the queue spans every tenant of the service.
  const suite = useSuite(
    async () => {
      const d = await TenantDriver.start();
      const other = await d.otherTenant();
      const reviewerMember = await createStaffMember(d.t, 'reviewer');
      const reviewer = await signInAs(d.t, reviewerMember);
      const auditor = await createStaffMember(d.t, 'auditor');
      return Object.assign(d, { other, reviewerMember, reviewer, auditor });
    },
    { perTest: true },
  );

  const view = async (session: StaffSession, url: string) => {
    const response = await suite.current.t.inject({
      method: 'GET',
      url,
      headers: { cookie: `console_session=${session.cookie}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.body;
  };

  it('lists players whose interaction is overdue or who contested, across tenants, the oldest first', async () => {
    const d = suite.current;
    const [here, there] = [new SaferGamblingSeed(d), new SaferGamblingSeed(d.other)];
    // 12:00 at tenant one: loss chasing (high) calls for an interaction due in 24 hours, overdue 24 hours later.
    const late = d.newUser('late');
    await here.trip(late, 'SG-002', { value: 3, threshold: 3 });
    // 13:00 at tenant two: a player contests a finding.
    await d.t.advance(HOUR);
    const disputer = d.other.newUser('disputer');
    await there.trip(disputer, 'SG-001', { value: 160_000, threshold: 50_000 });
    await there.interaction(disputer, { kind: 'call', outcome: 'contested' });
    // Owed but not yet overdue, and settled in time: neither is in the queue.
    const owing = d.newUser('owing');
    await here.trip(owing, 'SG-002', { value: 4, threshold: 3 });
    const settled = d.newUser('settled');
    await here.trip(settled, 'SG-002', { value: 3, threshold: 3 });
    await here.interaction(settled, { kind: 'call', outcome: 'limits_set', settles: true });

    // 48 hours after the first trip its interaction is overdue: the tenant is told, the player joins the queue.
    await d.t.advance(47 * HOUR);
    expect(await d.webhooks('player.interaction_overdue', late)).toHaveLength(1);
    // Two days on, the reviewer signs in again.
    const reviewer = await signInAs(d.t, d.reviewerMember);
    const rows = queueRows(await view(reviewer, '/console/queues/safer_gambling'));
    expect(rows.map((r) => [r[1], r[2], r[3]])).toEqual([
      [d.other.tenant.tenantId, disputer, 'contested'],
      [d.tenant.tenantId, late, 'overdue'],
    ]);
    expect(rows[0]![4]).toBe('2030-01-01 13:00 UTC');

    const page = await view(reviewer, '/console/queues/safer_gambling');
    expect(page).toContain(`<tr data-href="${playerHref(d.tenant.tenantId, late)}">`);
    expect(page).toContain(`<a href="${playerHref(d.other.tenant.tenantId, disputer)}">`);
    // Filtered by tenant, as every queue is.
    const own = queueRows(
      await view(reviewer, `/console/queues/safer_gambling?tenant_id=${d.tenant.tenantId}`),
    );
    expect(own.map((r) => r[2])).toEqual([late]);
    // A reviewer takes the overdue player from the player page and writes a note: the queue shows who has it.
    const follow = `/console/cases/safer_gambling/${encodeURIComponent(`${d.tenant.tenantId}/${late}`)}`;
    const taken = await postForm(d.t, reviewer, `${follow}/take`, {});
    expect(taken.statusCode).toBe(303);
    const noted = await postForm(d.t, reviewer, `${follow}/notes`, {
      body: 'Asked the operator for its call log',
    });
    expect(noted.statusCode).toBe(303);
    const lateHref = playerHref(d.tenant.tenantId, late);
    // The case work's redirect leads through the follow-up to its player's page.
    const through = await d.t.inject({
      method: 'GET',
      url: String(noted.headers.location),
      headers: { cookie: `console_session=${reviewer.cookie}` },
    });
    expect(through.statusCode).toBe(303);
    expect(String(through.headers.location)).toMatch(new RegExp(`^${lateHref}\\?notice=`));
    expect(await view(reviewer, lateHref)).toContain('Asked the operator for its call log');
    expect((await view(reviewer, lateHref)).includes('Take this case')).toBe(false);
    expect(queueRows(await view(reviewer, '/console/queues/safer_gambling'))[1]![6]).toContain('(you)');
    // Once the operator settles the interaction, the player leaves the queue.
    await here.interaction(late, { kind: 'call', outcome: 'limits_set', settles: true });
    const left = queueRows(await view(reviewer, '/console/queues/safer_gambling'));
    expect(left.map((r) => r[2])).toEqual([disputer]);
    // The dashboard counts them.
    expect(await view(reviewer, '/console')).toContain('Safer-gambling follow-ups');
  });

  it("shows the player's level, the markers' timeline newest first, interactions and financial checks", async () => {
    const d = suite.current;
    const seed = new SaferGamblingSeed(d);
    const player = d.newUser('marked');
    await seed.trip(player, 'SG-003', { value: 60, threshold: 50 });
    await d.t.advance(HOUR);
    await seed.trip(player, 'SG-004', { value: 5, threshold: 5 });
    await seed.interaction(player, { kind: 'message', outcome: 'no_response' });
    await seed.financialCheck(player, {
      level: 'light',
      window: 'rolling_30d',
      net_deposits_cents: 15_000,
      threshold_cents: 15_000,
    });
    // The same user id at the other tenant: none of it shows.
    await new SaferGamblingSeed(d.other).trip(player, 'SG-006', { value: 21_600, threshold: 21_600 });

    const body = await playerPage(d.t, d.auditor, d.tenant.tenantId, player);
    expect(body).toContain('<span class="badge">medium</span>');
    expect(sectionRows(body, "Markers' timeline")).toEqual([
      [
        '2030-01-01 13:00 UTC',
        'SG-004',
        'Failed deposits',
        'medium',
        '2030-01-01 12:59 UTC',
        '5',
        '5',
        'sg-2026-12',
      ],
      [
        '2030-01-01 12:00 UTC',
        'SG-003',
        'Night play',
        'low',
        '2030-01-01 11:59 UTC',
        '60%',
        '50%',
        'sg-2026-12',
      ],
    ]);
    expect(sectionRows(body, 'Safer-gambling interactions').map((r) => r.slice(2, 4))).toEqual([
      ['message', 'no response'],
    ]);
    expect(sectionRows(body, 'Financial checks')).toEqual([
      ['2030-01-01 13:00 UTC', 'light', 'rolling 30d', '150.00 GBP', '150.00 GBP'],
    ]);
    expect(body).not.toContain('SG-006');
  });

  it('lets a reviewer clear a contest with a reason (audited), and the player leaves the queue', async () => {
    const d = suite.current;
    const seed = new SaferGamblingSeed(d);
    const player = d.newUser('contests');
    await seed.trip(player, 'SG-005', { value: 2, threshold: 2 });
    const interactionId = await seed.interaction(player, { kind: 'email', outcome: 'contested' });

    // An auditor reads the flag but is offered no form; a reviewer is.
    const read = await playerPage(d.t, d.auditor, d.tenant.tenantId, player);
    expect(read).toContain(interactionId);
    expect(read).not.toContain('Clear the contest');
    const path = `${playerHref(d.tenant.tenantId, player)}/contest/clear`;
    expect(await view(d.reviewer, playerHref(d.tenant.tenantId, player))).toContain(`action="${path}"`);

    const cleared = await postForm(d.t, d.reviewer, path, { reason: 'The operator showed the call notes' });
    expect(cleared.statusCode).toBe(303);
    expect(queueRows(await view(d.reviewer, '/console/queues/safer_gambling'))).toEqual([]);
    const entry = await d.t.platform.db
      .selectFrom('audit_log')
      .selectAll()
      .where('tenant_id', '=', d.tenant.tenantId)
      .where('action', '=', 'safer_gambling.contest_cleared')
      .executeTakeFirstOrThrow();
    expect(entry.actor).toBe(d.reviewer.member.staffId);
    expect(entry.details).toMatchObject({
      user_id: player,
      contested_interaction_id: interactionId,
      reason: 'The operator showed the call notes',
    });
    // A second clear has nothing to clear.
    expect((await postForm(d.t, d.reviewer, path, { reason: 'again' })).statusCode).toBe(409);
    // An auditor may not clear one.
    const auditor = await signInAs(d.t, d.auditor);
    expect((await postForm(d.t, auditor, path, { reason: 'no' })).statusCode).toBe(403);
  });
});

// The queue and the player's section in real Chromium: no axe violation; the screenshots (test-artifacts/console) are
// in docs/console.md.
describeWithBrowser("the staff's safer-gambling pages in a browser", { timeout: 180_000 }, () => {
  const suite = useSuite(async (own) => {
    const d = own(await TenantDriver.start());
    const other = await d.otherTenant();
    const baseUrl = await d.t.listen();
    const browser = own(await launchBrowser());
    const reviewer = await createStaffMember(d.t, 'reviewer');
    return { d, other, baseUrl, browser, reviewer };
  });

  it('shows the queue and a marked player, with no axe violation', async () => {
    const { d, other, baseUrl, browser, reviewer } = suite.current;
    const [here, there] = [new SaferGamblingSeed(d), new SaferGamblingSeed(other)];
    const player = d.newUser('night-chaser');
    await here.trip(player, 'SG-003', { value: 64, threshold: 50 });
    await here.financialCheck(player, {
      level: 'light',
      window: 'rolling_30d',
      net_deposits_cents: 18_250,
      threshold_cents: 15_000,
    });
    await d.t.advance(3 * HOUR);
    await here.trip(player, 'SG-004', { value: 6, threshold: 5 });
    await here.trip(player, 'SG-002', { value: 4, threshold: 3 });
    await here.interaction(player, { kind: 'message', outcome: 'no_response' });
    await d.t.advance(HOUR);
    const disputer = other.newUser('disputer');
    await there.trip(disputer, 'SG-001', { value: 182_000, threshold: 50_000 });
    await there.interaction(disputer, { kind: 'call', outcome: 'contested' });
    await d.t.advance(2 * HOUR);
    const second = d.newUser('long-sessions');
    await here.trip(second, 'SG-006', { value: 4, threshold: 3 });
    await here.trip(second, 'SG-005', { value: 3, threshold: 2 });
    await here.trip(second, 'SG-002', { value: 3, threshold: 3 });
    await d.t.advance(2 * 24 * HOUR);
    await here.interaction(player, { kind: 'call', outcome: 'contested' });

    const session = await signInAs(d.t, reviewer);
    const window = suite.own(await newStaffPage(browser, baseUrl));
    await window.context.addCookies([{ name: 'console_session', value: session.cookie, url: baseUrl }]);
    const checked = async (path: string) => {
      const response = await window.page.goto(path);
      expect(response?.status()).toBe(200);
      expect(await checkAccessibility(window.page)).toEqual([]);
      expect(window.consoleErrors()).toEqual([]);
      expect(window.cspViolations()).toEqual([]);
    };
    await checked('/console/queues/safer_gambling');
    await screenshot(window.page, 'queue-safer-gambling');
    await checked(playerHref(d.tenant.tenantId, player));
    await screenshot(window.page, 'player-safer-gambling', 'console', window.page.locator('#safer-gambling'));
  });
});
