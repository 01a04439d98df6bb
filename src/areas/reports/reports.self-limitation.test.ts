import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { ReportsDriver, sha256 } from './reports.test-support.js';
import { HOUR } from '../../../test/helpers/units.js';

/**
 * The self-limitation report, against counts worked out by hand. Everything happens on 2030-01-01 from 12:00Z (the
 * test clock's start) except what follows from it: an increase activating after its 48-hour cool-off on the 3rd,
 * a 24-hour exclusion and a 24-hour time-out ending on the 2nd, and a time-out extended to 7 days ending on the 8th.
 * The January report, compiled on 1 February, holds every kind.
 */
describe('the self-limitation report', () => {
  const suite = useSuite(() => ReportsDriver.start(), { perTest: true });

  const api = async (method: 'POST' | 'DELETE', url: string, body?: object) => {
    const response = await suite.current.api(method, url, body);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json();
  };
  const setLimit = (user: string, amount: number) =>
    api('POST', '/v1/limits', {
      user_id: user,
      limit_type: 'limit_daily',
      amount_cents: amount,
      currency: 'USD',
      requested_at: suite.current.now(),
    });

  it('counts every limit change kind, breach attempts per player, exclusions and time-outs by duration and channel', async () => {
    const d = suite.current;
    const { t } = d;
    const first = await setLimit('u1', 10_000); // limit_set
    await setLimit('u1', 5_000); // limit_decreased
    const increase = await setLimit('u1', 20_000); // increase_requested: 4x, 48 hours; activates on the 3rd
    expect(increase).toMatchObject({ status: 'pending', cooloff_seconds: 172_800 });
    await setLimit('u3', 10_000); // limit_set
    const cancelled = await setLimit('u3', 30_000); // increase_requested
    await api('DELETE', `/v1/limits/${cancelled.limit_id}`); // increase_cancelled
    // Two rejected deposits of u1 (its limit in force is 50.00): breach attempts.
    for (let i = 0; i < 2; i++) {
      const check = await api('POST', '/v1/limits/check', {
        user_id: 'u1',
        amount_cents: 6_000,
        currency: 'USD',
      });
      expect(check.allowed).toBe(false);
    }
    // Exclusions: one expires on the 2nd, one is voided at once; the regulator's own list adds one of 7 days.
    const shortOne = await api('POST', '/v1/exclusions', {
      user_id: 'u4',
      duration: 'duration_24h',
      email: 'u4@example.com',
    });
    const voided = await api('POST', '/v1/exclusions', {
      user_id: 'u5',
      duration: 'duration_30d',
      email: 'u5@example.com',
    });
    const voiding = await t.asStaff('reviewer', 'POST', `/exclusions/${voided.exclusion_id}/void`, {
      reason: 'typed the wrong player',
    });
    expect(voiding.statusCode).toBe(200);
    await t.backoffice('POST', '/regulator/exclusions', {
      email: 'nat@example.com',
      duration: 'duration_7d',
      environment: 'sandbox',
    });
    // Time-outs: u6's ends on the 2nd; u7's, a minute later, is extended to 7 days a minute after that (the 24-hour
    // one is superseded and never ends by itself; the extension ends on the 8th).
    const breakTaken = await api('POST', '/v1/time-outs', { user_id: 'u6', duration: 'duration_24h' });
    await t.advance(60);
    const superseded = await api('POST', '/v1/time-outs', { user_id: 'u7', duration: 'duration_24h' });
    await t.advance(60);
    const extension = await api('POST', '/v1/time-outs', { user_id: 'u7', duration: 'duration_7d' });

    // To 2030-02-01T00:15Z: January closes.
    await t.advance(12 * HOUR + 15 * 60 - 120);
    await d.advanceDays(30);
    const [month] = await d.versions('self_limitation', '2030-01');
    expect(month).toMatchObject({ version: 1, version_kind: 'original', row_count: 17 });
    expect(month!.daily_counts).toEqual({
      '2030-01-01': 13,
      '2030-01-02': 2,
      '2030-01-03': 1,
      '2030-01-08': 1,
    });
    const json = await d.content(month!.report_id, 'json');
    expect(sha256(json)).toBe(month!.sha256_json);
    const body = JSON.parse(json);
    const noon = '2030-01-01T12:00:00.000Z';
    const limit = (
      kind: string,
      reference: string,
      amount: number,
      previous: number | null,
      cooloff: number,
      at = noon,
    ) => ({
      record_type: 'event',
      kind,
      occurred_at: at,
      user_id: reference === first.limit_id || reference === increase.limit_id ? 'u1' : expect.any(String),
      reference_id: reference,
      limit_type: 'limit_daily',
      amount_cents: amount,
      currency: 'USD',
      previous_amount_cents: previous,
      cooloff_seconds: cooloff,
      effective_from: expect.any(String),
      duration: null,
      channel: null,
      count: null,
    });
    expect(body.rows.map((r: { kind: string; user_id: string }) => [r.kind, r.user_id])).toEqual([
      ['limit_set', 'u1'],
      ['limit_decreased', 'u1'],
      ['increase_requested', 'u1'],
      ['limit_set', 'u3'],
      ['increase_requested', 'u3'],
      ['increase_activated', 'u1'],
      ['increase_cancelled', 'u3'],
      ['exclusion_registered', 'u4'],
      ['exclusion_registered', 'u5'],
      ['exclusion_expired', 'u4'],
      ['exclusion_voided', 'u5'],
      ['timeout_started', 'u6'],
      ['timeout_started', 'u7'],
      ['timeout_extended', 'u7'],
      ['timeout_ended', 'u6'],
      ['timeout_ended', 'u7'],
      ['breach_attempts', 'u1'],
    ]);
    expect(body.rows[0]).toEqual(limit('limit_set', first.limit_id, 10_000, null, 0));
    expect(body.rows[2]).toEqual(limit('increase_requested', increase.limit_id, 20_000, 5_000, 172_800));
    expect(body.rows[5]).toEqual(
      limit('increase_activated', increase.limit_id, 20_000, 5_000, 172_800, '2030-01-03T12:00:00.000Z'),
    );
    expect(body.rows[9]).toMatchObject({
      kind: 'exclusion_expired',
      occurred_at: '2030-01-02T12:00:00.000Z',
      reference_id: shortOne.exclusion_id,
      duration: 'duration_24h',
      channel: 'api',
    });
    const timeOut = (kind: string, reference: { time_out_id: string }, duration: string, at: string) => ({
      record_type: 'event',
      kind,
      occurred_at: at,
      user_id: expect.any(String),
      reference_id: reference.time_out_id,
      limit_type: null,
      amount_cents: null,
      currency: null,
      previous_amount_cents: null,
      cooloff_seconds: null,
      effective_from: null,
      duration,
      channel: 'api',
      count: null,
    });
    expect(body.rows.slice(11, 16)).toEqual([
      timeOut('timeout_started', breakTaken, 'duration_24h', breakTaken.starts_at),
      timeOut('timeout_started', superseded, 'duration_24h', superseded.starts_at),
      timeOut('timeout_extended', extension, 'duration_7d', extension.starts_at),
      timeOut('timeout_ended', breakTaken, 'duration_24h', '2030-01-02T12:00:00.000Z'),
      timeOut('timeout_ended', extension, 'duration_7d', '2030-01-08T12:02:00.000Z'),
    ]);
    expect(body.rows[16]).toMatchObject({ record_type: 'breach_attempts', user_id: 'u1', count: 2 });
    const totals = Object.fromEntries(
      body.totals.map(
        (r: { kind: string; duration: string | null; channel: string | null; count: number }) => [
          [r.kind, r.duration, r.channel].filter(Boolean).join(' '),
          r.count,
        ],
      ),
    );
    expect(totals).toEqual({
      limit_set: 2,
      limit_decreased: 1,
      increase_requested: 2,
      increase_activated: 1,
      increase_cancelled: 1,
      exclusion_registered: 2,
      exclusion_expired: 1,
      exclusion_voided: 1,
      timeout_started: 2,
      timeout_extended: 1,
      timeout_ended: 2,
      breach_attempts: 2,
      breach_attempt_players: 1,
      'exclusion_registered duration_24h api': 1,
      'exclusion_registered duration_30d api': 1,
      'exclusion_registered duration_7d regulator': 1,
      'timeout_started duration_24h api': 2,
      'timeout_extended duration_7d api': 1,
    });

    // The CSV carries the same rows then the totals, under one header row.
    const csv = (await d.content(month!.report_id, 'csv')).split('\r\n');
    expect(csv[0]).toBe(
      'record_type,kind,occurred_at,user_id,reference_id,limit_type,amount_cents,currency,previous_amount_cents,cooloff_seconds,effective_from,duration,channel,count',
    );
    expect(csv.filter((line) => line.startsWith('total,'))).toHaveLength(18);
    expect(csv).toContain('total,exclusion_registered,,,,,,,,,,duration_7d,regulator,1');

    // The day reports split the same changes by day: the 3rd holds only the activation.
    const [third] = await d.versions('self_limitation', '2030-01-03');
    expect(
      JSON.parse(await d.content(third!.report_id, 'json')).rows.map((r: { kind: string }) => r.kind),
    ).toEqual(['increase_activated']);
  });

  it("a loss limit and a rejected stake are the loss limit's rows, never a deposit limit's row or breach attempt", async () => {
    const d = suite.current;
    await api('POST', '/v1/limits', {
      user_id: 'u9',
      limit_kind: 'loss',
      limit_type: 'limit_daily',
      amount_cents: 1_000,
      currency: 'USD',
      requested_at: d.now(),
    });
    const stake = await api('POST', '/v1/limits/wager-check', {
      user_id: 'u9',
      amount_cents: 5_000,
      currency: 'USD',
    });
    expect(stake).toMatchObject({ allowed: false, breached_limit_kind: 'loss' });
    await d.t.advance(12 * HOUR + 15 * 60);
    const [day] = await d.versions('self_limitation', '2030-01-01');
    const body = JSON.parse(await d.content(day!.report_id, 'json'));
    expect(body.rows.map((r: { kind: string; user_id: string }) => [r.kind, r.user_id])).toEqual([
      ['loss_limit_set', 'u9'],
      ['loss_breach_attempts', 'u9'],
    ]);
    const totals = body.totals.filter((r: { count: number }) => r.count > 0);
    expect(totals.map((r: { kind: string; count: number }) => [r.kind, r.count])).toEqual([
      ['loss_limit_set', 1],
      ['loss_breach_attempts', 1],
      ['loss_breach_attempt_players', 1],
    ]);
  });

  it('counts every limit kind: set, decreased, increase requested, activated and cancelled, and breach attempts per kind', async () => {
    const d = suite.current;
    const { t } = d;
    /** Each call a second after the one before: rows of one section come in the order they were made. */
    const next = async (method: 'POST' | 'DELETE', url: string, body?: object) => {
      await t.advance(1);
      return api(method, url, body);
    };
    const limit = (user: string, kind: string, type: string, amount: number) =>
      next('POST', '/v1/limits', {
        user_id: user,
        limit_kind: kind,
        limit_type: type,
        ...(kind === 'play_time' ? { amount_seconds: amount } : { amount_cents: amount, currency: 'USD' }),
        requested_at: d.now(),
      });
    const stake = (user: string) =>
      next('POST', '/v1/limits/wager-check', { user_id: user, amount_cents: 6_000, currency: 'USD' });

    // A deposit limit and one rejected deposit: the deposit figures, as they always were.
    await limit('u-deposit', 'deposit', 'limit_daily', 5_000);
    expect(
      (await next('POST', '/v1/limits/check', { user_id: 'u-deposit', amount_cents: 6_000, currency: 'USD' }))
        .allowed,
    ).toBe(false);
    const increases: Record<string, { limit_id: string; effective_from: string }> = {};
    for (const kind of ['loss', 'wager', 'play_time']) {
      const user = `u-${kind}`;
      await limit(user, kind, 'limit_daily', 10_000); // set
      await limit(user, kind, 'limit_daily', 5_000); // decreased
      increases[kind] = await limit(user, kind, 'limit_daily', 10_000); // increase requested: 2x, 24 hours
      await limit(user, kind, 'limit_weekly', 10_000); // set
      const raise = await limit(user, kind, 'limit_weekly', 50_000); // increase requested: 5x, 48 hours
      await next('DELETE', `/v1/limits/${raise.limit_id}`); // cancelled
    }
    // Stakes of 60.00: over u-loss's daily loss limit of 50.00, and twice over u-wager's daily wager limit.
    expect(await stake('u-loss')).toMatchObject({ allowed: false, breached_limit_kind: 'loss' });
    for (let i = 0; i < 2; i++) {
      expect(await stake('u-wager')).toMatchObject({ allowed: false, breached_limit_kind: 'wager' });
    }

    // 2030-01-02T00:15Z: the 1st is compiled; a day later the 2nd, when the daily increases went live.
    const now = new Date(d.now()).getTime();
    await t.advance((Date.UTC(2030, 0, 2, 0, 15) - now) / 1000);
    await d.advanceDays(1);
    const [first] = await d.versions('self_limitation', '2030-01-01');
    expect(first).toMatchObject({ generator_version: 'reports/1.2', row_count: 22 });
    const body = JSON.parse(await d.content(first!.report_id, 'json'));
    const changes = (kind: string) =>
      ['limit_set', 'limit_decreased', 'increase_requested', 'limit_set', 'increase_requested'].map((k) => [
        `${kind}_${k}`,
        `u-${kind}`,
      ]);
    expect(body.rows.map((r: { kind: string; user_id: string }) => [r.kind, r.user_id])).toEqual([
      ['limit_set', 'u-deposit'],
      ...changes('loss'),
      ...changes('wager'),
      ...changes('play_time'),
      ['loss_increase_cancelled', 'u-loss'],
      ['wager_increase_cancelled', 'u-wager'],
      ['play_time_increase_cancelled', 'u-play_time'],
      ['breach_attempts', 'u-deposit'],
      ['loss_breach_attempts', 'u-loss'],
      ['wager_breach_attempts', 'u-wager'],
    ]);
    // A play-time limit's amounts are seconds, with no currency.
    expect(body.rows[13]).toEqual({
      record_type: 'event',
      kind: 'play_time_increase_requested',
      occurred_at: expect.any(String),
      user_id: 'u-play_time',
      reference_id: increases.play_time!.limit_id,
      limit_type: 'limit_daily',
      amount_cents: 10_000,
      currency: null,
      previous_amount_cents: 5_000,
      cooloff_seconds: 86_400,
      effective_from: increases.play_time!.effective_from,
      duration: null,
      channel: null,
      count: null,
    });
    expect(body.rows.at(-1)).toMatchObject({ record_type: 'breach_attempts', count: 2 });
    const totals = Object.fromEntries(
      body.totals.map((r: { kind: string; count: number }) => [r.kind, r.count]),
    );
    const kindTotals = (kind: string, breaches: number) => ({
      [`${kind}_limit_set`]: 2,
      [`${kind}_limit_decreased`]: 1,
      [`${kind}_increase_requested`]: 2,
      [`${kind}_increase_cancelled`]: 1,
      ...(breaches ? { [`${kind}_breach_attempts`]: breaches, [`${kind}_breach_attempt_players`]: 1 } : {}),
    });
    expect(totals).toEqual({
      limit_set: 1,
      limit_decreased: 0,
      increase_requested: 0,
      increase_activated: 0,
      increase_cancelled: 0,
      exclusion_registered: 0,
      exclusion_expired: 0,
      exclusion_voided: 0,
      timeout_started: 0,
      timeout_extended: 0,
      timeout_ended: 0,
      breach_attempts: 1,
      breach_attempt_players: 1,
      ...kindTotals('loss', 1),
      ...kindTotals('wager', 2),
      ...kindTotals('play_time', 0),
    });
    const csv = (await d.content(first!.report_id, 'csv')).split('\r\n');
    expect(csv).toContain('total,wager_breach_attempts,,,,,,,,,,,,2');

    const [second] = await d.versions('self_limitation', '2030-01-02');
    const activated = JSON.parse(await d.content(second!.report_id, 'json'));
    expect(
      activated.rows.map((r: { kind: string; reference_id: string; occurred_at: string }) => [
        r.kind,
        r.reference_id,
        r.occurred_at,
      ]),
    ).toEqual(
      ['loss', 'wager', 'play_time'].map((kind) => [
        `${kind}_increase_activated`,
        increases[kind]!.limit_id,
        increases[kind]!.effective_from,
      ]),
    );
    expect(activated.totals.filter((r: { count: number }) => r.count > 0)).toHaveLength(3);
  });
});
