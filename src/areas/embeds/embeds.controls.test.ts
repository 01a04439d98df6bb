import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { escapeHtml } from '../../platform/html.js';
import { formatMoney } from '../../platform/money.js';
import { LOCALES, type Locale } from './embeds.rules.js';
import { EmbedPageDriver, section } from './embeds.test-support.js';
import { formatTime, MESSAGES } from './locales/index.js';
import { formatSeconds } from './pages/limit-section.js';

const OPERATOR = 'Casino Royale';
const HOUR = 3600;
const DAY = 24 * HOUR;

/**
 * The limits embed's page for every control, as a player's browser without script uses it: each kind of limit with
 * what is pending and when it goes live, the forms that set them, the reality-check interval, a break with its
 * confirmation, and the errors, in the player's language.
 */
describe('limits embed page: every kind of limit and a break', () => {
  const suite = useSuite(() => EmbedPageDriver.start({ name: OPERATOR }));
  const euros = (cents: number, locale: Locale = 'en') => formatMoney(cents, 'EUR', { locale });
  /** A date as the page writes it, `seconds` from now on the service clock. */
  const inSeconds = (seconds: number, locale: Locale = 'en') =>
    formatTime(locale, new Date(suite.current.t.platform.clock.now().getTime() + seconds * 1000));
  const shows = (html: string, text: string) => expect(html).toContain(escapeHtml(text));

  /** A limit of each kind through the tenant API, each with an increase cooling off. */
  async function everyKindPending(d: EmbedPageDriver) {
    const money = (limit_kind: string, limit_type: string, amount_cents: number) =>
      d.setLimit({ limit_kind, limit_type, amount_cents, currency: 'EUR' });
    const time = (limit_type: string, amount_seconds: number) =>
      d.setLimit({ limit_kind: 'play_time', limit_type, amount_seconds });
    const steps = [
      () => money('deposit', 'limit_daily', 10_000),
      () => money('deposit', 'limit_daily', 15_000),
      () => money('loss', 'limit_weekly', 20_000),
      () => money('loss', 'limit_weekly', 80_000),
      () => money('wager', 'limit_monthly', 50_000),
      () => money('wager', 'limit_monthly', 300_000),
      () => time('limit_session', HOUR),
      () => time('limit_session', 1.5 * HOUR),
    ];
    for (const step of steps) expect((await step()).statusCode).toBeLessThan(300);
  }

  it('shows every kind of limit with what is pending and when it goes live', async () => {
    const d = suite.current;
    const { page } = await d.limitsPage();
    await everyKindPending(d);
    const body = (await d.get(page)).body;
    const words = MESSAGES.en.limits;
    // Up to twice: 24 hours; up to five times: 48 hours; more: 7 days.
    shows(section(body, 'deposit'), words.pending(euros(15_000), inSeconds(DAY)));
    shows(section(body, 'loss'), words.pending(euros(80_000), inSeconds(2 * DAY)));
    shows(section(body, 'wager'), words.pending(euros(300_000), inSeconds(7 * DAY)));
    const playTime = section(body, 'play_time');
    shows(playTime, words.types.limit_session);
    shows(playTime, formatSeconds('en', HOUR));
    shows(playTime, words.pending(formatSeconds('en', 1.5 * HOUR), inSeconds(DAY)));
    expect(formatSeconds('en', 1.5 * HOUR)).toBe('1 hour, 30 minutes');
    for (const id of ['deposit', 'loss', 'wager', 'play_time'])
      expect(section(body, id), id).toContain(escapeHtml(words.cancel));
    // No break yet: the four durations are offered.
    for (const duration of ['duration_24h', 'duration_7d', 'duration_30d', 'duration_6w'])
      expect(section(body, 'time_out')).toContain(`value="${duration}"`);
  });

  it('sets a loss limit from its form: in force at once, announced with its kind, listed by the tenant API', async () => {
    const d = suite.current;
    const { page, user } = await d.limitsPage();
    const set = await d.post(`${page}/limits`, {
      limit_kind: 'loss',
      limit_type: 'limit_weekly',
      amount: '200',
    });
    expect(set.statusCode).toBe(200);
    shows(set.body, MESSAGES.en.limits.setNow('loss limit', 'Weekly (7 days)', '€200.00'));
    expect(set.body).toContain('&quot;limit_kind&quot;:&quot;loss&quot;');
    expect(section(set.body, 'loss')).not.toContain(escapeHtml(MESSAGES.en.limits.kinds.loss.none));
    const list = await d.api('GET', `/v1/limits?user_id=${user}&limit_kind=loss`);
    expect(list.json().limits).toEqual([
      expect.objectContaining({
        limit_kind: 'loss',
        limit_type: 'limit_weekly',
        amount_cents: 20_000,
        currency: 'EUR',
        status: 'active',
      }),
    ]);
    expect(await d.webhooks('limit.created')).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ limit_kind: 'loss', amount_cents: 20_000, status: 'active' }),
      }),
    ]);
  });

  it('raises a play time limit typed in hours and minutes: pending, with the date it goes live', async () => {
    const d = suite.current;
    const { page, user } = await d.limitsPage();
    const first = await d.post(`${page}/limits`, {
      limit_kind: 'play_time',
      limit_type: 'limit_daily',
      hours: '1',
      minutes: '',
    });
    shows(first.body, MESSAGES.en.limits.setNow('play time limit', 'Daily (24 hours)', '1 hour'));
    const raised = await d.post(`${page}/limits`, {
      limit_kind: 'play_time',
      limit_type: 'limit_daily',
      hours: '2',
      minutes: '30',
    });
    expect(raised.statusCode).toBe(200);
    // 2.5 times the limit in force: 48 hours of cooling-off.
    const live = inSeconds(2 * DAY);
    shows(
      raised.body,
      MESSAGES.en.limits.increaseWaits(
        'play time limit',
        'Daily (24 hours)',
        '2 hours, 30 minutes',
        live,
        '1 hour',
      ),
    );
    shows(section(raised.body, 'play_time'), MESSAGES.en.limits.pending('2 hours, 30 minutes', live));
    const list = await d.api('GET', `/v1/limits?user_id=${user}&limit_kind=play_time`);
    expect(list.json().limits[0]).toMatchObject({
      amount_seconds: HOUR,
      pending_change: { amount_seconds: 2.5 * HOUR, status: 'pending', cooloff_seconds: 2 * DAY },
    });
  });

  it('takes a break only after a page that says it cannot be undone; then shows it in force and offers only longer ones', async () => {
    const d = suite.current;
    const { page, user } = await d.limitsPage();
    const words = MESSAGES.en.timeOut;
    const confirm = await d.post(`${page}/time-out`, { duration: 'duration_7d' });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain(`<h1>${escapeHtml(words.confirmTitle('7 days'))}</h1>`);
    shows(confirm.body, words.confirmUntil(inSeconds(7 * DAY)));
    shows(confirm.body, words.confirmText(OPERATOR));
    expect((await d.api('GET', `/v1/time-outs?user_id=${user}`)).json().time_outs).toEqual([]);

    const taken = await d.post(`${page}/time-out`, { duration: 'duration_7d', confirm: 'yes' });
    expect(taken.statusCode).toBe(200);
    shows(taken.body, words.started(inSeconds(7 * DAY)));
    expect(taken.body).toContain('&quot;event&quot;:&quot;timeout_started&quot;');
    const breakSection = section(taken.body, 'time_out');
    shows(breakSection, words.inForce(inSeconds(7 * DAY)));
    shows(breakSection, words.inForceNext);
    expect(breakSection).not.toContain('value="duration_24h"');
    expect(breakSection).not.toContain('value="duration_7d"');
    expect(breakSection).toContain('value="duration_30d"');
    expect(breakSection).toContain('value="duration_6w"');

    const [started] = await d.webhooks('timeout.started');
    expect(started!.data).toEqual({
      time_out_id: expect.stringMatching(/^tmo_/),
      user_id: user,
      duration: 'duration_7d',
      starts_at: d.now(),
      ends_at: d.at(7 * DAY),
    });
    expect((await d.api('GET', `/v1/time-outs?user_id=${user}`)).json().time_outs).toEqual([
      expect.objectContaining({ duration: 'duration_7d', status: 'active' }),
    ]);
  });

  it("answers mistakes and the limits' rules in the player's language, on the field concerned", async () => {
    const d = suite.current;
    const { page } = await d.limitsPage('de');
    const errors = MESSAGES.de.errors;
    const tooShort = await d.post(`${page}/limits`, {
      limit_kind: 'play_time',
      limit_type: 'limit_session',
      hours: '0',
      minutes: '4',
    });
    expect(tooShort.statusCode).toBe(422);
    shows(tooShort.body, errors.timeTooShort);
    expect(tooShort.body).toContain('href="#play_time-hours"');
    expect(tooShort.body).toMatch(/id="play_time-minutes"[^>]*value="4"/);

    const noTime = await d.post(`${page}/limits`, { limit_kind: 'play_time', limit_type: 'limit_daily' });
    expect(noTime.statusCode).toBe(400);
    shows(noTime.body, errors.enterTime);

    const notAmount = await d.post(`${page}/limits`, {
      limit_kind: 'loss',
      limit_type: 'limit_daily',
      amount: 'viel',
    });
    expect(notAmount.statusCode).toBe(400);
    shows(notAmount.body, errors.enterAmount);
    expect(notAmount.body).toContain('href="#loss-amount"');

    const wager = (amount: string) =>
      d.post(`${page}/limits`, { limit_kind: 'wager', limit_type: 'limit_daily', amount });
    await wager('100');
    expect((await wager('150')).statusCode).toBe(200);
    const again = await wager('400');
    expect(again.statusCode).toBe(409);
    shows(again.body, errors.pendingChange);
    expect(again.body).toContain('href="#wager-limit_type"');

    const noBreak = await d.post(`${page}/time-out`, {});
    expect(noBreak.statusCode).toBe(400);
    shows(noBreak.body, errors.chooseBreak);
    expect(noBreak.body).toContain('href="#time_out-duration"');
  });

  it("sets the reality-check interval: the operator's default hour, the player's 30 minutes, then the default again; sessions started afterwards take it", async () => {
    // A tenant of its own, whose default this test sets (the test service names it "Test Operator").
    const d = await suite.current.otherTenant();
    const operator = 'Test Operator';
    const { page, user } = await d.limitsPage();
    const words = MESSAGES.en.realityCheck;
    const startSession = async (session_id: string) =>
      (await d.api('POST', '/v1/play-sessions', { user_id: user, session_id, started_at: d.now() })).json();
    const checked = (html: string) => html.match(/value="(\w+)"\s+id="reality_check-\w+"\s+checked/)?.[1];

    const first = section((await d.get(page)).body, 'reality_check');
    shows(first, words.current('1 hour'));
    shows(first, words.operatorDefault(operator));
    for (const seconds of ['900', '1800', '3600', '7200', 'default'])
      expect(first).toContain(`id="reality_check-${seconds}"`);
    shows(first, words.useDefault(operator, '1 hour'));
    expect(checked(first)).toBe('default');

    const saved = await d.post(`${page}/reality-check`, { interval: '1800' });
    expect([saved.statusCode, saved.headers.location]).toEqual([
      303,
      `${page}?saved=reality_check#reality_check`,
    ]);
    const mine = (await d.get(`${page}?saved=reality_check`)).body;
    shows(mine, words.saved('30 minutes'));
    shows(section(mine, 'reality_check'), words.current('30 minutes'));
    shows(section(mine, 'reality_check'), words.yourChoice);
    expect(checked(section(mine, 'reality_check'))).toBe('1800');
    expect(await startSession('with-mine')).toMatchObject({ reality_check_interval_seconds: 1800 });

    // The operator's default is the tenant's own once its staff set one.
    const tenantDefault = `/tenants/${d.tenant.tenantId}/reality-check`;
    expect((await d.t.backoffice('PUT', tenantDefault, { interval_seconds: 2700 })).statusCode).toBe(200);
    expect((await d.post(`${page}/reality-check`, { interval: 'default' })).statusCode).toBe(303);
    const back = (await d.get(`${page}?saved=reality_check`)).body;
    shows(back, words.savedDefault(operator, '45 minutes'));
    shows(section(back, 'reality_check'), words.current('45 minutes'));
    shows(section(back, 'reality_check'), words.operatorDefault(operator));
    expect(checked(section(back, 'reality_check'))).toBe('default');
    expect(await startSession('with-default')).toMatchObject({ reality_check_interval_seconds: 2700 });
    // A session keeps the interval it started with.
    expect((await d.api('GET', '/v1/play-sessions/with-mine')).json()).toMatchObject({
      reality_check_interval_seconds: 1800,
    });
  });

  it("refuses an interval the page does not offer, in the player's language, and changes nothing", async () => {
    const d = suite.current;
    const { page, user } = await d.limitsPage('de');
    for (const interval of ['60', '1000', '7201', '0', 'never', '']) {
      const forged = await d.post(`${page}/reality-check`, { interval });
      expect([interval, forged.statusCode]).toEqual([interval, 400]);
      shows(forged.body, MESSAGES.de.errors.chooseReminder);
      expect(forged.body).toContain('href="#reality_check-interval"');
      expect(section(forged.body, 'reality_check')).toContain(
        'aria-describedby="reality_check-hint reality_check-interval-error"',
      );
    }
    expect((await d.post(`${page}/reality-check`, {})).statusCode).toBe(400);
    shows(
      section((await d.get(page)).body, 'reality_check'),
      MESSAGES.de.realityCheck.operatorDefault(OPERATOR),
    );
    const session = await d.api('POST', '/v1/play-sessions', {
      user_id: user,
      session_id: 'after-forgery',
      started_at: d.now(),
    });
    expect(session.json()).toMatchObject({ reality_check_interval_seconds: 3600 });
  });

  it.each(LOCALES)('renders every control in %s, with its words and none missing', async (locale) => {
    const d = suite.current;
    const { page } = await d.limitsPage(locale);
    await everyKindPending(d);
    const confirm = await d.post(`${page}/time-out`, { duration: 'duration_24h' });
    const words = MESSAGES[locale];
    shows(confirm.body, words.timeOut.confirmTitle(words.timeOut.durations.duration_24h));
    shows(confirm.body, words.timeOut.confirmText(OPERATOR));
    const taken = await d.post(`${page}/time-out`, { duration: 'duration_24h', confirm: 'yes' });
    shows(taken.body, words.timeOut.started(inSeconds(DAY, locale)));
    const body = (await d.get(page)).body;
    expect(body).toContain(`<html lang="${locale}">`);
    shows(body, words.limits.title);
    for (const kind of ['deposit', 'loss', 'wager', 'play_time'] as const) {
      const own = words.limits.kinds[kind];
      for (const text of [own.heading, own.intro, own.formLegend, own.save]) shows(section(body, kind), text);
    }
    shows(section(body, 'loss'), words.limits.pending(euros(80_000, locale), inSeconds(2 * DAY, locale)));
    shows(section(body, 'play_time'), words.limits.types.limit_session);
    shows(section(body, 'play_time'), words.limits.hours);
    shows(section(body, 'time_out'), words.timeOut.inForce(inSeconds(DAY, locale)));
    shows(section(body, 'time_out'), words.timeOut.longerLegend);
    const reminders = words.realityCheck;
    for (const text of [reminders.heading, reminders.intro, reminders.legend, reminders.hint, reminders.save])
      shows(section(body, 'reality_check'), text);
    shows(section(body, 'reality_check'), reminders.operatorDefault(OPERATOR));
    shows(section(body, 'reality_check'), reminders.useDefault(OPERATOR, formatSeconds(locale, HOUR)));
    expect(body).not.toMatch(/undefined|NaN|Invalid Date|\[object /);
  });
});
