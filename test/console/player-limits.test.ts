import { describe, expect, it } from 'vitest';
import { LimitsDriver } from '../../src/areas/limits/limits.test-support.js';
import {
  checkAccessibility,
  describeWithBrowser,
  launchBrowser,
  newStaffPage,
  screenshot,
} from '../helpers/browser.js';
import { createStaffMember, signInAs } from '../helpers/staff-driver.js';
import { useSuite } from '../helpers/suite.js';
import { MINUTE } from '../helpers/units.js';
import { playerPage, sectionRows } from './player-page.js';

describe("the console's player page: limits of every kind, their changes and every breach attempt", () => {
  const suite = useSuite(async () => {
    const d = await LimitsDriver.start();
    const auditor = await createStaffMember(d.t, 'auditor');
    return Object.assign(d, { auditor });
  });

  /** Each step a minute after the one before, so the page's newest-first order is the steps' reverse. */
  const step = async <T>(call: () => Promise<{ statusCode: number; json(): T }>, status = 201) => {
    const d = suite.current;
    await d.t.advance(MINUTE);
    const response = await call();
    expect(response.statusCode).toBe(status);
    return response.json() as T & { limit_id: string };
  };

  it('shows a loss limit, a pending play-time increase with its date, a cancelled wager limit and both kinds of breach attempt', async () => {
    const d = suite.current;
    const player = d.newUser('p<b>&"x"');
    const deposit = await step(() => d.setLimit(5_000));
    await step(() => d.check(6_000), 200); // a rejected deposit
    const loss = await step(() => d.setKindLimit('loss', 10_000));
    const lower = await step(() => d.setKindLimit('loss', 8_000)); // a decrease: the first loss limit superseded
    const wager = await step(() => d.setKindLimit('wager', 5_000));
    const raise = await step(() => d.setKindLimit('wager', 20_000)); // 4x: 48 hours
    await step(() => d.cancel(raise.limit_id), 200);
    const time = await step(() => d.setKindLimit('play_time', 3_600));
    const longer = await step(() => d.setKindLimit('play_time', 7_200)); // 2x: 24 hours
    const stake = await step(() => d.wagerCheck(6_000), 200); // over the wager limit of 50.00
    expect(stake).toMatchObject({ allowed: false, breached_limit_kind: 'wager' });
    // Another tenant's player of the same id: none of it shows.
    const other = await d.otherTenant();
    const stranger = await other.api('POST', '/v1/limits', {
      user_id: player,
      limit_kind: 'loss',
      limit_type: 'limit_weekly',
      amount_cents: 99_900,
      currency: 'USD',
      requested_at: d.now(),
    });

    const body = await playerPage(d.t, d.auditor, d.tenant.tenantId, player);
    expect(sectionRows(body, 'Limits in force')).toEqual([
      ['deposit', 'limit_daily', '50.00 USD', '0.00 USD', '0.00 USD', '50.00 USD', '—', ''],
      ['loss', 'limit_daily', '80.00 USD', '0.00 USD', '0.00 USD', '80.00 USD', '—', ''],
      // Time played comes from play sessions (none here); play time is never held.
      [
        'play time',
        'limit_daily',
        '1 hour',
        '0 seconds',
        '',
        '1 hour',
        '—',
        '2 hours from 2030-01-02 12:09 UTC',
      ],
      ['wager', 'limit_daily', '50.00 USD', '0.00 USD', '0.00 USD', '50.00 USD', '—', ''],
    ]);
    expect(sectionRows(body, 'Limit history')).toEqual([
      [
        longer.limit_id,
        'play time',
        'limit_daily',
        '2 hours',
        '1 hour',
        'pending, in force from 2030-01-02 12:09 UTC',
        '2030-01-01 12:09 UTC',
        '2030-01-02 12:09 UTC',
        '—',
      ],
      [
        time.limit_id,
        'play time',
        'limit_daily',
        '1 hour',
        '',
        'in force',
        '2030-01-01 12:08 UTC',
        '2030-01-01 12:08 UTC',
        '—',
      ],
      [
        raise.limit_id,
        'wager',
        'limit_daily',
        '200.00 USD',
        '50.00 USD',
        'cancelled',
        '2030-01-01 12:06 UTC',
        '',
        '2030-01-01 12:07 UTC',
      ],
      [
        wager.limit_id,
        'wager',
        'limit_daily',
        '50.00 USD',
        '',
        'in force',
        '2030-01-01 12:05 UTC',
        '2030-01-01 12:05 UTC',
        '—',
      ],
      [
        lower.limit_id,
        'loss',
        'limit_daily',
        '80.00 USD',
        '100.00 USD',
        'in force',
        '2030-01-01 12:04 UTC',
        '2030-01-01 12:04 UTC',
        '—',
      ],
      [
        loss.limit_id,
        'loss',
        'limit_daily',
        '100.00 USD',
        '',
        'superseded',
        '2030-01-01 12:03 UTC',
        '2030-01-01 12:03 UTC',
        '2030-01-01 12:04 UTC',
      ],
      [
        deposit.limit_id,
        'deposit',
        'limit_daily',
        '50.00 USD',
        '',
        'in force',
        '2030-01-01 12:01 UTC',
        '2030-01-01 12:01 UTC',
        '—',
      ],
    ]);
    expect(sectionRows(body, 'Limit changes').map((row) => [row[0], row[1], row[2], row[6]])).toEqual([
      ['2030-01-01 12:09 UTC', 'increase requested', 'play time', longer.limit_id],
      ['2030-01-01 12:08 UTC', 'set', 'play time', time.limit_id],
      ['2030-01-01 12:07 UTC', 'increase cancelled', 'wager', raise.limit_id],
      ['2030-01-01 12:06 UTC', 'increase requested', 'wager', raise.limit_id],
      ['2030-01-01 12:05 UTC', 'set', 'wager', wager.limit_id],
      ['2030-01-01 12:04 UTC', 'decreased', 'loss', lower.limit_id],
      ['2030-01-01 12:03 UTC', 'set', 'loss', loss.limit_id],
      ['2030-01-01 12:01 UTC', 'set', 'deposit', deposit.limit_id],
    ]);
    const breaches = sectionRows(body, 'Breach attempts');
    expect(breaches.map((row) => row.slice(0, 7))).toEqual([
      ['2030-01-01 12:10 UTC', 'stake', 'wager', 'limit_daily', '60.00 USD', '50.00 USD', '0.00 USD'],
      ['2030-01-01 12:02 UTC', 'deposit', 'deposit', 'limit_daily', '60.00 USD', '50.00 USD', '0.00 USD'],
    ]);
    expect(body).toMatch(/newest first:\s+2 in all\./);

    // Escaped everywhere: the player's id is text, never markup.
    expect(body).not.toContain('p<b>&"x"');
    expect(body).toContain('p&lt;b&gt;&amp;&quot;x&quot;');
    expect(body).not.toContain(stranger.json().limit_id);
    expect(body).not.toContain('999.00 USD');

    // Its cool-off over, the increase is in force and the limit it replaced superseded, whether or not the job ran.
    await d.t.platform.testClock!.advance(d.t.db, 24 * 60 * MINUTE);
    const later = await playerPage(d.t, d.auditor, d.tenant.tenantId, player);
    expect(
      sectionRows(later, 'Limit history')
        .map((row) => [row[0], row[5]])
        .slice(0, 2),
    ).toEqual([
      [longer.limit_id, 'in force'],
      [time.limit_id, 'superseded'],
    ]);
    expect(sectionRows(later, 'Limit changes')[0]!.slice(0, 3)).toEqual([
      '2030-01-02 12:09 UTC',
      'increase in force',
      'play time',
    ]);
  });

  it('says so when the player has no limit and no breach attempt', async () => {
    const d = suite.current;
    const body = await playerPage(d.t, d.auditor, d.tenant.tenantId, d.newUser('no-limits'));
    for (const [heading, sentence] of [
      ['Limits in force', 'No limit in force.'],
      ['Limit history', 'No limit set.'],
      ['Limit changes', 'No limit change.'],
      ['Breach attempts', 'No breach attempt.'],
    ]) {
      expect(sectionRows(body, heading!)).toEqual([]);
      expect(body).toContain(sentence);
    }
  });
});

// One page in real Chromium: the limits' sections pass axe; the screenshot (test-artifacts/console) is in docs/console.md.
describeWithBrowser("the player page's limits in a browser", { timeout: 120_000 }, () => {
  const suite = useSuite(async (own) => {
    const d = own(await LimitsDriver.start());
    const baseUrl = await d.t.listen();
    const browser = own(await launchBrowser());
    const auditor = await createStaffMember(d.t, 'auditor');
    return { d, baseUrl, browser, auditor };
  });

  it('shows every kind, a pending increase and both kinds of breach attempt, with no axe violation', async () => {
    const { d, baseUrl, browser, auditor } = suite.current;
    const player = d.newUser('player');
    await d.setLimit(5_000);
    await d.check(6_000);
    await d.setKindLimit('loss', 10_000);
    await d.setKindLimit('wager', 5_000);
    await d.t.advance(MINUTE);
    await d.setKindLimit('play_time', 3_600);
    await d.setKindLimit('play_time', 7_200);
    await d.wagerCheck(6_000);
    const session = await signInAs(d.t, auditor);
    const window = suite.own(await newStaffPage(browser, baseUrl));
    await window.context.addCookies([{ name: 'console_session', value: session.cookie, url: baseUrl }]);
    const response = await window.page.goto(`/console/players/${d.tenant.tenantId}/${player}`);
    expect(response?.status()).toBe(200);
    expect(await checkAccessibility(window.page)).toEqual([]);
    expect(window.consoleErrors()).toEqual([]);
    expect(window.cspViolations()).toEqual([]);
    await window.page.locator('h2', { hasText: 'Limits in force' }).scrollIntoViewIfNeeded();
    await screenshot(window.page, 'player-limits');
  });
});
