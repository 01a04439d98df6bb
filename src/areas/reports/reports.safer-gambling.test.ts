import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { HOUR } from '../../../test/helpers/units.js';
import { SaferGamblingSeed } from '../safer-gambling/safer-gambling.staff.test-support.js';
import { ReportsDriver, sha256 } from './reports.test-support.js';

type Row = Record<string, string | number | null>;

/** The monthly safer-gambling report: what the markers, the interactions and the financial checks came to. */
describe('the safer-gambling report', () => {
  const suite = useSuite(() => ReportsDriver.start(), { perTest: true });

  it("counts a month's trips by marker, interactions by kind and outcome, the overdue ones and the checks", async () => {
    const d = suite.current;
    const seed = new SaferGamblingSeed(d);
    // 2030-01-01 12:00: loss chasing (an interaction due 2030-01-02 12:00) and a spend escalation.
    await seed.trip('late', 'SG-002', { value: 3, threshold: 3 });
    await seed.trip('spender', 'SG-001', { value: 160_000, threshold: 50_000 });
    // 13:00: another loss chaser (due 2030-01-02 13:00) and two financial checks.
    await d.t.advance(HOUR);
    await seed.trip('silent', 'SG-002', { value: 4, threshold: 3 });
    await seed.financialCheck('spender', {
      level: 'light',
      window: 'rolling_30d',
      net_deposits_cents: 20_000,
      threshold_cents: 15_000,
    });
    await seed.financialCheck('late', {
      level: 'enhanced',
      window: 'rolling_24h',
      net_deposits_cents: 120_000,
      threshold_cents: 100_000,
    });
    // 2030-01-03 12:00: the first is settled 24 hours late; the second's message is unanswered (still owed).
    await d.t.advance(47 * HOUR);
    await seed.interaction('late', { kind: 'call', outcome: 'limits_set', settles: true });
    await seed.interaction('silent', { kind: 'message', outcome: 'no_response' });
    // 2030-01-20: a third is settled within the hour, in time.
    await d.advanceDays(17);
    await seed.trip('prompt', 'SG-002', { value: 3, threshold: 3 });
    await d.t.advance(HOUR);
    await seed.interaction('prompt', { kind: 'call', outcome: 'no_concern', settles: true });

    // 2030-02-01 00:15: the month's report, and no daily one of its type.
    await d.advanceDays(12);
    const [month] = await d.versions('safer_gambling', '2030-01');
    expect(month).toMatchObject({ version: 1, version_kind: 'original', period_kind: 'month' });
    expect(await d.versions('safer_gambling', '2030-01-02')).toEqual([]);
    const json = await d.content(month!.report_id, 'json');
    expect(sha256(json)).toBe(month!.sha256_json);
    expect(sha256(await d.content(month!.report_id, 'csv'))).toBe(month!.sha256_csv);
    const { rows, totals } = JSON.parse(json) as { rows: Row[]; totals: Row[] };

    expect(rows.filter((r) => r.record_type === 'marker_trip').map((r) => [r.user_id, r.code])).toEqual([
      ['late', 'SG-002'],
      ['spender', 'SG-001'],
      ['silent', 'SG-002'],
      ['prompt', 'SG-002'],
    ]);
    expect(rows.find((r) => r.user_id === 'spender' && r.record_type === 'marker_trip')).toMatchObject({
      name: 'Spend escalation',
      level: 'medium',
      measured_value: 160_000,
      threshold: 50_000,
      occurred_at: '2030-01-01T12:00:00.000Z',
    });
    expect(rows.filter((r) => r.record_type === 'interaction_overdue')).toEqual([
      expect.objectContaining({
        user_id: 'late',
        status: 'settled_late',
        due_at: '2030-01-02T12:00:00.000Z',
        hours_overdue: 24,
      }),
      // Still owed when the month ended: from its due time to 2030-02-01 00:00.
      expect.objectContaining({
        user_id: 'silent',
        status: 'open_at_end',
        due_at: '2030-01-02T13:00:00.000Z',
        hours_overdue: 707,
      }),
    ]);
    expect(
      rows.filter((r) => r.record_type === 'financial_check').map((r) => [r.user_id, r.level, r.window]),
    ).toEqual([
      ['spender', 'light', 'rolling_30d'],
      ['late', 'enhanced', 'rolling_24h'],
    ]);

    const counted = (type: string) =>
      totals
        .filter((t) => t.record_type === type)
        .map((t) => [t.code ?? t.kind ?? t.level, t.outcome ?? t.window, t.count].filter((v) => v !== null));
    expect(counted('markers_tripped')).toEqual([
      ['SG-001', 1],
      ['SG-002', 3],
      ['SG-003', 0],
      ['SG-004', 0],
      ['SG-005', 0],
      ['SG-006', 0],
    ]);
    expect(counted('interactions')).toEqual([
      ['message', 1],
      ['email', 0],
      ['call', 2],
      ['limit_prompt', 0],
      ['account_review', 0],
      ['no_concern', 1],
      ['limits_set', 1],
      ['time_out', 0],
      ['self_excluded', 0],
      ['account_closed', 0],
      ['no_response', 1],
      ['contested', 0],
      ['message', 'no_response', 1],
      ['call', 'no_concern', 1],
      ['call', 'limits_set', 1],
    ]);
    expect(totals.find((t) => t.record_type === 'interactions_overdue')).toMatchObject({
      count: 2,
      longest_hours: 707,
      median_hours: 365.5,
    });
    expect(counted('financial_checks')).toEqual([
      ['light', 1],
      ['enhanced', 1],
      ['enhanced', 'rolling_24h', 1],
      ['light', 'rolling_30d', 1],
    ]);
    expect(month!.daily_counts).toMatchObject({ '2030-01-01': 5, '2030-01-03': 3, '2030-01-20': 2 });
  });

  it('is reproducible: a regeneration after more happened holds the same bytes; a day is refused', async () => {
    const d = suite.current;
    const seed = new SaferGamblingSeed(d);
    await seed.trip('night-owl', 'SG-003', { value: 60, threshold: 50 });
    await d.advanceDays(31);
    const [original] = await d.versions('safer_gambling', '2030-01');
    // February's trip is not January's.
    await seed.trip('night-owl', 'SG-004', { value: 6, threshold: 5 });
    const regenerated = await d.t.backoffice('POST', '/reports/regenerate', {
      tenant_id: d.tenant.tenantId,
      report_type: 'safer_gambling',
      period: '2030-01',
      reason: 'checking the month against the source',
    });
    expect(regenerated.statusCode, regenerated.body).toBe(201);
    expect(regenerated.json()).toMatchObject({
      version: 2,
      version_kind: 'regeneration',
      sha256_json: original!.sha256_json,
      sha256_csv: original!.sha256_csv,
    });
    const day = await d.t.backoffice('POST', '/reports/regenerate', {
      tenant_id: d.tenant.tenantId,
      report_type: 'safer_gambling',
      period: '2030-01-05',
      reason: 'a day',
    });
    expect(day.statusCode).toBe(400);
    expect(day.json().message).toContain('month');
  });
});
