import { describe, expect, it } from 'vitest';
import { useSuite } from './helpers/suite.js';
import { AML_RULES, RULE_CODES } from '../src/areas/aml/aml.rules.js';
import { withListEntry } from '../src/areas/sanctions/sanctions.test-support.js';
import { staffOf } from './helpers/staff-driver.js';
import { TenantDriver } from './helpers/tenant-driver.js';
import { DAY, HOUR } from './helpers/units.js';

const PLAYERS = [
  'velocity',
  'roundtrip',
  'multi-a',
  'multi-b',
  'multi-c',
  'geo',
  'aggregate',
  'minimal',
  'dormant',
  'dup',
  'clean',
  'large',
  'sam',
  'maybe',
  'testhit',
  'structuring',
  'relisted',
  'failing',
] as const;
// Neutral player ids: an id that spelled a pattern name would defeat the scan.
const U = Object.fromEntries(PLAYERS.map((key, i) => [key, `player-${i + 1}`])) as Record<
  (typeof PLAYERS)[number],
  string
>;

/**
 * The tipping-off rule: no tenant-facing response or webhook carries a rule description, a rule's pattern name,
 * the findings behind a case (context), a matched sanctions entity, or what a member of staff typed or who they are. A scenario produces sanctions hits, AML
 * flags, holds, rejects and every staff decision; every body a tenant could see is collected and scanned.
 */
describe('tipping-off', () => {
  const suite = useSuite(() => TenantDriver.start());
  const seen: string[] = [];
  let n = 0;

  /** Every tenant-facing call goes through here, so its response body is scanned. */
  const api = async (method: 'GET' | 'POST', url: string, body?: object) => {
    const { t, tenant } = suite.current;
    const response = await t.api(tenant.apiKey, method, url, body);
    seen.push(response.body);
    return response;
  };
  /** What the staff typed: a reviewer's reasons are theirs alone, and must never reach a tenant. */
  const typed: string[] = [];
  /** A reviewer, signed in, decides; each reason is distinct, so the scan can look for it. */
  const decide = async (area: 'sanctions' | 'aml', caseId: string, body: Record<string, string>) => {
    const reason = `Reviewer's own words ${typed.length + 1}: the passport photo matches`;
    typed.push(reason);
    const response = await suite.current.t.asStaff('reviewer', 'POST', `/${area}/cases/${caseId}/decision`, {
      ...body,
      reason,
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  /** A second member of staff (a supervisor) approves a proposed confirmation, freeze or escalation. */
  const approve = async (area: 'sanctions' | 'aml', caseId: string) => {
    const response = await suite.current.t.asStaff(
      'supervisor',
      'POST',
      `/${area}/cases/${caseId}/proposal/approve`,
    );
    expect(response.statusCode, response.body).toBe(200);
  };
  const iso = (offset = 0) =>
    new Date(suite.current.t.platform.clock.now().getTime() + offset * 1000).toISOString();
  const event = (user: string, event_type: string, dollars: number, extra: Record<string, unknown> = {}) =>
    api('POST', '/v1/aml/event', {
      user_id: user,
      event_type,
      transaction_id: `tx-${++n}`,
      amount_cents: Math.round(dollars * 100),
      currency: 'USD',
      payment_method: `card-${user}`,
      metadata: {},
      occurred_at: iso(),
      ...extra,
    });
  const screen = (user: string, dollars: number, extra: Record<string, unknown> = {}) =>
    api('POST', '/v1/aml/screen', {
      user_id: user,
      withdrawal_id: `wd-${++n}`,
      amount_cents: Math.round(dollars * 100),
      currency: 'USD',
      payment_method: `bank-${user}`,
      destination_country: 'CA',
      ...extra,
    });

  it('no tenant response or webhook names a rule, its findings, or a matched entity', async () => {
    const { t, receiver, tenant } = suite.current;
    // Sanctions: every sandbox trigger, then both reviewer decisions.
    const sanctionCases: string[] = [];
    for (const [user, first_name, last_name] of [
      [U['sam'], 'SanctionedSam', 'Smith'],
      [U['maybe'], 'MaybeMarta', 'Jones'],
      [U['testhit'], 'Ada', 'TestHit'],
    ] as const) {
      const hit = await api('POST', '/v1/sanctions/screen', {
        user_id: user,
        first_name,
        last_name,
        date_of_birth: '1980-01-01',
        nationality: 'GB',
        email: `${user}@example.com`,
      });
      sanctionCases.push(hit.json().case_id);
      await api('GET', `/v1/sanctions/status?user_id=${user}`);
    }
    await decide('sanctions', sanctionCases[0]!, { decision: 'confirmed' });
    await approve('sanctions', sanctionCases[0]!);
    await decide('sanctions', sanctionCases[1]!, { decision: 'cleared' });
    // Repeats, conflicts, invalid requests and the statuses after the decisions are tenant-facing too.
    const samBody = {
      user_id: U['sam'],
      first_name: 'SanctionedSam',
      last_name: 'Smith',
      date_of_birth: '1980-01-01',
      nationality: 'GB',
      email: `${U['sam']}@example.com`,
    };
    expect((await api('POST', '/v1/sanctions/screen', samBody)).statusCode).toBe(200);
    expect((await api('POST', '/v1/sanctions/screen', { ...samBody, last_name: 'Other' })).statusCode).toBe(
      409,
    );
    expect((await api('POST', '/v1/sanctions/screen', { ...samBody, email: 'x' })).statusCode).toBe(400);
    for (const user of [U['sam'], U['maybe'], U['testhit']])
      await api('GET', `/v1/sanctions/status?user_id=${user}`);
    // A re-screen hit against a newly published entry.
    await api('POST', '/v1/sanctions/screen', {
      ...samBody,
      user_id: U['relisted'],
      first_name: 'Rex',
      last_name: 'Relisted',
    });
    await withListEntry(
      t,
      'Relisted',
      { entity_id: 'sandbox-relisted', name: 'Rex RELISTED', score: 0.9 },
      () => t.backoffice('POST', '/sanctions/rescreen', { tenant_id: tenant.tenantId }),
    );
    const relisted = await api('GET', `/v1/sanctions/status?user_id=${U['relisted']}`);
    expect(relisted.json().status).toBe('hit_review_pending');
    sanctionCases.push(relisted.json().case_id);

    // AML async patterns, R-004 (after its window), R-008.
    for (let i = 0; i < 5; i++) await event(U['velocity'], 'deposit', 50, { occurred_at: iso(-i * 60) });
    await event(U['roundtrip'], 'deposit', 1_000, { occurred_at: iso(-HOUR) });
    await event(U['roundtrip'], 'withdrawal', 1_000);
    for (const user of [U['multi-a'], U['multi-b'], U['multi-c']])
      await event(user, 'deposit', 20, { metadata: { payment_method_fingerprint: 'shared-card' } });
    await event(U['geo'], 'login', 0, { metadata: { session_id: 'sess', ip_country: 'GB' } });
    await event(U['geo'], 'deposit', 20, { metadata: { session_id: 'sess', card_country: 'FR' } });
    for (let i = 0; i < 10; i++)
      await event(U['structuring'], 'deposit', 1_950, { occurred_at: iso(-i * 14 * HOUR) });
    await event(U['aggregate'], 'deposit', 5_000);
    await event(U['aggregate'], 'wager', 5_000);
    await event(U['minimal'], 'deposit', 8_000);
    await event(U['dormant'], 'login', 0, { occurred_at: iso(-120 * DAY) });
    await event(U['dormant'], 'deposit', 4_000);
    await event(U['dormant'], 'wager', 1_500);
    // Five failed deposits in an hour: R-002 for AML, and SG-004 for safer gambling, on the same events.
    for (let i = 0; i < 5; i++)
      await event(U['failing'], 'deposit', 40, { occurred_at: iso(-i * 60), metadata: { status: 'failed' } });
    // Duplicate, conflicting and invalid events: their answers are tenant-facing too.
    const duplicate = {
      user_id: U['dup'],
      event_type: 'deposit',
      transaction_id: 'dup-1',
      amount_cents: 100,
      currency: 'USD',
      payment_method: 'c',
      metadata: {},
      occurred_at: iso(),
    };
    await api('POST', '/v1/aml/event', duplicate);
    await api('POST', '/v1/aml/event', duplicate);
    await api('POST', '/v1/aml/event', { ...duplicate, amount_cents: 200 });
    await api('POST', '/v1/aml/event', { ...duplicate, event_type: 'bonus' });
    await t.deliverWebhooks();

    // Real-time screens: allow, hold, reject (history plus R-001), a repeat and a conflict.
    await screen(U['clean'], 100);
    const hold = await screen(U['large'], 10_000, { withdrawal_id: 'wd-large' });
    await screen(U['large'], 10_000, { withdrawal_id: 'wd-large' });
    await screen(U['large'], 10_001, { withdrawal_id: 'wd-large' });
    const reject = await screen(U['velocity'], 10_000);
    expect(reject.json().decision).toBe('reject');
    await screen(U['geo'], 50);
    await t.advance(DAY);
    await t.deliverWebhooks();

    // Staff decisions: every action, on real-time and async cases.
    const caseOf = async (user: string) =>
      (await api('GET', `/v1/aml/cases?user_id=${user}`)).json().cases[0].case_id;
    await decide('aml', hold.json().case_id, { action: 'confirm_hold' });
    await decide('aml', hold.json().case_id, { action: 'escalate' });
    await approve('aml', hold.json().case_id);
    await decide('aml', reject.json().case_id, { action: 'freeze' });
    await approve('aml', reject.json().case_id);
    await decide('aml', await caseOf(U['roundtrip']), { action: 'clear' });
    for (const user of [
      U['velocity'],
      U['roundtrip'],
      U['multi-a'],
      U['geo'],
      U['aggregate'],
      U['minimal'],
      U['dormant'],
      U['large'],
      U['structuring'],
    ]) {
      await api('GET', `/v1/aml/cases?user_id=${user}`);
    }
    await t.deliverWebhooks();

    // The player status call: every player with a hit, a case, a hold, a freeze or an escalation is one
    // account_under_review with no end, and nothing more of it.
    for (const user of Object.values(U)) {
      const status = await api('GET', `/v1/players/${user}/status?email=${user}%40example.com`);
      const underReview = status
        .json<{ restrictions: { code: string; until: string | null }[] }>()
        .restrictions.filter((r) => r.code === 'account_under_review');
      expect(underReview.length, status.body).toBeLessThanOrEqual(1);
      expect(underReview.every((r) => r.until === null)).toBe(true);
    }
    for (const user of [U['sam'], U['testhit'], U['relisted'], U['large'], U['velocity'], U['geo']]) {
      const status = await api('GET', `/v1/players/${user}/status`);
      expect(status.json().restrictions).toEqual([{ code: 'account_under_review', until: null }]);
      for (const id of [...sanctionCases, hold.json().case_id, reject.json().case_id, ...RULE_CODES])
        expect(status.body).not.toContain(id);
    }

    // The safer-gambling answers, for every player: what a marker saw, never what AML or sanctions saw.
    const saferGambling: string[] = [];
    for (const user of Object.values(U)) {
      const answer = await api('GET', `/v1/players/${user}/safer-gambling`);
      expect(answer.statusCode, answer.body).toBe(200);
      saferGambling.push(answer.body);
    }
    expect(JSON.parse(saferGambling[PLAYERS.indexOf('failing')]!).markers).toEqual([
      expect.objectContaining({ code: 'SG-004', name: 'Failed deposits', status: 'active' }),
    ]);

    // What the tenant received as webhooks, each verified as a tenant would.
    const webhooks = receiver.verified(tenant.signingSecret);
    const events = new Set(webhooks.map((w) => w.event));
    for (const expected of [
      'sanctions.hit',
      'sanctions.confirmed',
      'sanctions.cleared',
      'aml.flagged',
      'aml.held',
      'aml.escalated',
      'aml.cleared',
      'aml.account_frozen',
    ]) {
      expect(events).toContain(expected);
    }
    expect(events).toContain('player.risk_changed');
    // Safer gambling carries no AML rule code, risk score or case, and nothing of a sanctions match.
    const saferGamblingWebhooks = webhooks.filter((w) => w.event.startsWith('player.'));
    for (const body of [...saferGambling, ...saferGamblingWebhooks.map((w) => JSON.stringify(w))]) {
      expect(body).not.toMatch(/R-\d{3}/);
      for (const key of ['"risk_score"', '"case_id"', '"rules_triggered"', '"matches"', '"entity'])
        expect(body, `safer gambling said ${key}: ${body}`).not.toContain(key);
    }
    // The AML webhooks are the spec's, field for field, as before safer gambling existed.
    const AML_FIELDS: Record<string, string[]> = {
      'aml.flagged': [
        'case_id',
        'recommended_action',
        'risk_score',
        'rules_triggered',
        'transactions_to_review',
        'user_id',
      ],
      'aml.held': ['case_id', 'reviewer', 'rules_triggered', 'status', 'user_id', 'withdrawal_id'],
    };
    for (const w of webhooks.filter((w) => w.event.startsWith('aml.'))) {
      expect(Object.keys(w.data).sort(), w.event).toEqual(AML_FIELDS[w.event] ?? AML_FIELDS['aml.held']);
    }
    const flaggedRules = new Set(
      webhooks.filter((w) => w.event === 'aml.flagged').flatMap((w) => w.data.rules_triggered as string[]),
    );
    expect([...flaggedRules].sort()).toEqual([
      'R-002',
      'R-003',
      'R-004',
      'R-005',
      'R-006',
      'R-007',
      'R-008',
      'R-009',
    ]);
    const tenantFacing = [...seen, ...receiver.received.map((r) => r.body)];

    // What must never appear: read from the catalogue and from the staff's own case views.
    const forbidden = new Set<string>();
    for (const code of RULE_CODES) forbidden.add(AML_RULES[code].description).add(AML_RULES[code].pattern);
    for (const caseId of sanctionCases) {
      const staff = (await t.backoffice('GET', `/sanctions/cases/${caseId}`)).json();
      for (const match of staff.matches as { name: string; entity_id: string }[])
        forbidden.add(match.name).add(match.entity_id);
    }
    const amlStaff = (await t.backoffice('GET', `/aml/cases?tenant_id=${tenant.tenantId}&limit=1000`)).json()
      .cases;
    expect(amlStaff.length).toBeGreaterThanOrEqual(9);
    for (const staffCase of amlStaff) {
      for (const rule of staffCase.rules) expect(forbidden).toContain(rule.description);
    }
    // Nothing a member of staff typed, and nothing that says who they are.
    for (const text of typed) forbidden.add(text);
    for (const role of ['reviewer', 'supervisor'] as const) {
      const { member } = await staffOf(t, role);
      forbidden.add(member.staffId).add(member.email).add(member.displayName);
    }
    expect(typed.length).toBeGreaterThanOrEqual(6);
    expect(forbidden.size).toBeGreaterThan(20);

    for (const body of tenantFacing) {
      const lower = body.toLowerCase();
      for (const text of forbidden)
        expect(lower, `tenant saw "${text}" in ${body}`).not.toContain(text.toLowerCase());
      // Staff-only fields never appear under any name.
      for (const key of [
        '"context"',
        '"description"',
        '"pattern"',
        '"pattern_key"',
        '"details"',
        '"matches"',
      ]) {
        expect(body, `tenant saw ${key} in ${body}`).not.toContain(key);
      }
    }
    expect(tenantFacing.length).toBeGreaterThan(40);
  });
});
