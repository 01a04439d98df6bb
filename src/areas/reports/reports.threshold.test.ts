import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { AML_RULES } from '../aml/aml.rules.js';
import { at, ReportsDriver, sha256 } from './reports.test-support.js';
import { HOUR } from '../../../test/helpers/units.js';

/**
 * The threshold report, against answers worked out by hand: every amount and total below is written out, not
 * computed by the code under test. The test clock starts at 2030-01-01T12:00Z; the day's report is compiled at
 * 2030-01-02T00:15Z.
 */
describe('the threshold report', () => {
  const suite = useSuite(() => ReportsDriver.start(), { perTest: true });

  const row = (fields: Record<string, unknown>) => ({
    utc_date: '2030-01-01',
    kyc_tier: 'tier_0',
    aml_case_id: null,
    aml_case_status: null,
    ...fields,
  });

  it('reports USD 10,000 and over, by transaction or by same-day total, at the stored rate, succeeded money only', async () => {
    const d = suite.current;
    const { t, tenant } = d;
    await t.backoffice('PUT', '/fx-rates/EUR', { usd_per_unit: 1.1 });
    await t.backoffice('PUT', '/fx-rates/GBP', { usd_per_unit: 1.25 });
    const send = (e: Parameters<ReportsDriver['moneyEvent']>[0]) => d.moneyEvent(e);
    // Exactly USD 10,000.00 in one deposit: in. USD 9,999.99: out.
    await send({
      user_id: 'p-exact',
      event_type: 'deposit',
      transaction_id: 'exact',
      amount_cents: 1_000_000,
      occurred_at: at(-2),
    });
    await send({
      user_id: 'p-under',
      event_type: 'deposit',
      transaction_id: 'under',
      amount_cents: 999_999,
      occurred_at: at(-2),
    });
    // 4,000 + 3,500 + 2,500 = 10,000 deposited on one UTC day: all three in. Its 5,000 withdrawn is totalled apart: out.
    await send({
      user_id: 'p-agg',
      event_type: 'deposit',
      transaction_id: 'agg-1',
      amount_cents: 400_000,
      occurred_at: at(-11),
    });
    await send({
      user_id: 'p-agg',
      event_type: 'deposit',
      transaction_id: 'agg-2',
      amount_cents: 350_000,
      occurred_at: at(-7),
    });
    await send({
      user_id: 'p-agg',
      event_type: 'deposit',
      transaction_id: 'agg-3',
      amount_cents: 250_000,
      occurred_at: at(-3),
    });
    await send({
      user_id: 'p-agg',
      event_type: 'withdrawal',
      transaction_id: 'agg-w',
      amount_cents: 500_000,
      occurred_at: at(-2),
    });
    // 6,000 at 23:30 on the 31st and 6,000 at 00:30 on the 1st: never totalled across midnight, so out.
    await send({
      user_id: 'p-midnight',
      event_type: 'deposit',
      transaction_id: 'mid-1',
      amount_cents: 600_000,
      occurred_at: at(-12.5),
    });
    await send({
      user_id: 'p-midnight',
      event_type: 'deposit',
      transaction_id: 'mid-2',
      amount_cents: 600_000,
      occurred_at: at(-11.5),
    });
    // EUR 9,091.00 at 1.1 = USD 10,000.10: in. GBP 8,000.00 at 1.25 = USD 10,000.00: in. GBP 7,999.99 = USD 9,999.99 (rounded): out.
    await send({
      user_id: 'p-eur',
      event_type: 'deposit',
      transaction_id: 'eur',
      amount_cents: 909_100,
      currency: 'EUR',
      occurred_at: at(-6),
    });
    await send({
      user_id: 'p-gbp',
      event_type: 'deposit',
      transaction_id: 'gbp',
      amount_cents: 800_000,
      currency: 'GBP',
      occurred_at: at(-5),
    });
    await send({
      user_id: 'p-gbp-under',
      event_type: 'deposit',
      transaction_id: 'gbp-under',
      amount_cents: 799_999,
      currency: 'GBP',
      occurred_at: at(-5),
    });
    // A failed and a pending deposit never count, however large.
    await send({
      user_id: 'p-failed',
      event_type: 'deposit',
      transaction_id: 'failed',
      amount_cents: 1_200_000,
      occurred_at: at(-4),
      status: 'failed',
    });
    await send({
      user_id: 'p-failed',
      event_type: 'deposit',
      transaction_id: 'pending',
      amount_cents: 1_500_000,
      occurred_at: at(-4),
      status: 'pending',
    });
    // A withdrawal of exactly USD 10,000: in.
    await send({
      user_id: 'p-withdraw',
      event_type: 'withdrawal',
      transaction_id: 'wd',
      amount_cents: 1_000_000,
      occurred_at: at(-1),
    });
    // The rate moves after the events: the report keeps the rate stored with each event.
    await t.backoffice('PUT', '/fx-rates/EUR', { usd_per_unit: 2 });

    await t.advance(12 * HOUR + 15 * 60);
    const [day] = await d.versions('threshold', '2030-01-01');
    expect(day).toMatchObject({
      period_kind: 'day',
      version: 1,
      version_kind: 'original',
      requested_by: 'service',
      row_count: 7,
      daily_counts: { '2030-01-01': 7 },
      high_water_mark: '2030-01-02T00:15:00.000Z',
    });
    const json = await d.content(day!.report_id, 'json');
    expect(sha256(json)).toBe(day!.sha256_json);
    const body = JSON.parse(json);
    expect(body.report).toEqual({
      tenant_id: tenant.tenantId,
      report_type: 'threshold',
      period: '2030-01-01',
      period_start: '2030-01-01T00:00:00.000Z',
      period_end: '2030-01-02T00:00:00.000Z',
      generator_version: 'reports/1.2',
      threshold_usd_cents: 1_000_000,
    });
    const aggregate = {
      event_type: 'deposit',
      trigger: 'same_day_aggregate',
      currency: 'USD',
      day_total_usd_cents: 1_000_000,
      day_transactions: 3,
    };
    expect(body.rows).toEqual([
      row({
        user_id: 'p-agg',
        ...aggregate,
        transaction_id: 'agg-1',
        amount: '4000.00',
        amount_minor: 400_000,
        usd_amount: '4000.00',
        usd_cents: 400_000,
        occurred_at: '2030-01-01T01:00:00.000Z',
      }),
      row({
        user_id: 'p-agg',
        ...aggregate,
        transaction_id: 'agg-2',
        amount: '3500.00',
        amount_minor: 350_000,
        usd_amount: '3500.00',
        usd_cents: 350_000,
        occurred_at: '2030-01-01T05:00:00.000Z',
      }),
      row({
        user_id: 'p-agg',
        ...aggregate,
        transaction_id: 'agg-3',
        amount: '2500.00',
        amount_minor: 250_000,
        usd_amount: '2500.00',
        usd_cents: 250_000,
        occurred_at: '2030-01-01T09:00:00.000Z',
      }),
      row({
        user_id: 'p-eur',
        event_type: 'deposit',
        trigger: 'single_transaction',
        transaction_id: 'eur',
        amount: '9091.00',
        currency: 'EUR',
        amount_minor: 909_100,
        usd_amount: '10000.10',
        usd_cents: 1_000_010,
        occurred_at: '2030-01-01T06:00:00.000Z',
        day_total_usd_cents: 1_000_010,
        day_transactions: 1,
      }),
      row({
        user_id: 'p-exact',
        event_type: 'deposit',
        trigger: 'single_transaction',
        transaction_id: 'exact',
        amount: '10000.00',
        currency: 'USD',
        amount_minor: 1_000_000,
        usd_amount: '10000.00',
        usd_cents: 1_000_000,
        occurred_at: '2030-01-01T10:00:00.000Z',
        day_total_usd_cents: 1_000_000,
        day_transactions: 1,
      }),
      row({
        user_id: 'p-gbp',
        event_type: 'deposit',
        trigger: 'single_transaction',
        transaction_id: 'gbp',
        amount: '8000.00',
        currency: 'GBP',
        amount_minor: 800_000,
        usd_amount: '10000.00',
        usd_cents: 1_000_000,
        occurred_at: '2030-01-01T07:00:00.000Z',
        day_total_usd_cents: 1_000_000,
        day_transactions: 1,
      }),
      row({
        user_id: 'p-withdraw',
        event_type: 'withdrawal',
        trigger: 'single_transaction',
        transaction_id: 'wd',
        amount: '10000.00',
        currency: 'USD',
        amount_minor: 1_000_000,
        usd_amount: '10000.00',
        usd_cents: 1_000_000,
        occurred_at: '2030-01-01T11:00:00.000Z',
        day_total_usd_cents: 1_000_000,
        day_transactions: 1,
      }),
    ]);
    expect(body.totals).toEqual([
      { event_type: 'deposit', transactions: 6, players: 4, usd_cents: 4_000_010 },
      { event_type: 'withdrawal', transactions: 1, players: 1, usd_cents: 1_000_000 },
    ]);

    // The CSV: RFC 4180, one header row, CRLF, the same rows.
    const csv = await d.content(day!.report_id, 'csv');
    expect(sha256(csv)).toBe(day!.sha256_csv);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'utc_date,user_id,event_type,trigger,transaction_id,amount,currency,amount_minor,usd_amount,usd_cents,occurred_at,kyc_tier,aml_case_id,aml_case_status,day_total_usd_cents,day_transactions',
    );
    expect(lines[4]).toBe(
      '2030-01-01,p-eur,deposit,single_transaction,eur,9091.00,EUR,909100,10000.10,1000010,2030-01-01T06:00:00.000Z,tier_0,,,1000010,1',
    );
    expect(lines).toHaveLength(9);
    expect(lines[8]).toBe('');

    // The monthly report, compiled on the 1st of February, holds the same seven transactions.
    await d.advanceDays(30);
    const [month] = await d.versions('threshold', '2030-01');
    expect(month).toMatchObject({
      period_kind: 'month',
      version: 1,
      row_count: 7,
      daily_counts: { '2030-01-01': 7 },
    });
    expect(JSON.parse(await d.content(month!.report_id, 'json')).rows).toEqual(body.rows);
  });

  it("gives each row the player's KYC tier at the time, and the AML case's id and status only", async () => {
    const d = suite.current;
    const { t, tenant } = d;
    // p-kyc deposits USD 10,000 at 05:00 at tier_0, is approved for tier_1 at 12:00, deposits again at 13:00.
    await d.moneyEvent({
      user_id: 'p-kyc',
      event_type: 'deposit',
      transaction_id: 'kyc-1',
      amount_cents: 1_000_000,
      occurred_at: at(-7),
    });
    const started = await t.api(tenant.apiKey, 'POST', '/v1/kyc/start', {
      user_id: 'p-kyc',
      email: 'p-kyc@example.com',
      phone: '+15555550111',
      withdrawal_amount_cents: 30_000,
      currency: 'USD',
      withdrawal_id: 'kyc-wd',
    });
    expect(started.statusCode, started.body).toBe(201);
    const { kyc_check_id: checkId, vendor_access_token: token } = started.json();
    for (const step of ['begin', 'submit'])
      await t.inject({ method: 'POST', url: `/v1/kyc/sandbox-vendor/${token}/${step}` });
    const adminKey = await t.issueKey(tenant.tenantId, 'admin');
    const approved = await t.api(adminKey, 'POST', '/v1/kyc/manual-review', {
      kyc_check_id: checkId,
      decision: 'approve',
      reason: 'documents checked',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    await t.advance(HOUR);
    await d.moneyEvent({
      user_id: 'p-kyc',
      event_type: 'deposit',
      transaction_id: 'kyc-2',
      amount_cents: 1_000_000,
      occurred_at: at(1),
    });
    // p-case's withdrawal of USD 10,000 is held at the screen: a case holding that withdrawal.
    const screen = await t.api(tenant.apiKey, 'POST', '/v1/aml/screen', {
      user_id: 'p-case',
      withdrawal_id: 'case-wd',
      amount_cents: 1_000_000,
      currency: 'USD',
      payment_method: 'bank_transfer',
      destination_country: 'CA',
    });
    expect(screen.json().decision).toBe('hold');
    await d.moneyEvent({
      user_id: 'p-case',
      event_type: 'withdrawal',
      transaction_id: 'case-wd',
      amount_cents: 1_000_000,
      occurred_at: at(1),
    });

    await t.advance(11 * HOUR + 15 * 60);
    const [day] = await d.versions('threshold', '2030-01-01');
    const json = await d.content(day!.report_id, 'json');
    const rows = JSON.parse(json).rows;
    expect(
      rows.map((r: Record<string, unknown>) => [
        r.transaction_id,
        r.kyc_tier,
        r.aml_case_id,
        r.aml_case_status,
      ]),
    ).toEqual([
      ['case-wd', 'tier_0', screen.json().case_id, 'under_review'],
      ['kyc-1', 'tier_0', null, null],
      ['kyc-2', 'tier_1', null, null],
    ]);
    // Nothing of the case beyond its id and status: no rule, pattern or description.
    for (const rule of Object.values(AML_RULES)) {
      expect(json).not.toContain(rule.description);
      expect(json).not.toContain(rule.code);
    }
  });
});
