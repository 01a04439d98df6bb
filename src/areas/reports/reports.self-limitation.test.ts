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

  it('counts deposit limits only: a loss limit and a rejected stake add no deposit-limit row or breach attempt', async () => {
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
    expect(JSON.parse(await d.content(day!.report_id, 'json')).rows).toEqual([]);
  });
});
