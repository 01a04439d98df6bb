import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { DAY, MINUTE } from '../../../test/helpers/units.js';
import { uniqueEmail, uniquePhone } from '../exclusions/exclusions.test-support.js';
import { PlayersDriver } from './players.test-support.js';

const ALLOWED = { can_play: true, can_deposit: true, can_withdraw: true, marketing_allowed: true };
const UNDER_REVIEW = { can_play: false, can_deposit: false, can_withdraw: false, marketing_allowed: false };
const EXCLUDED = { can_play: false, can_deposit: false, can_withdraw: true, marketing_allowed: false };

/** GET /v1/players/{user_id}/status through HTTP on the test clock: what the tenant sees as each area restricts. */
describe('player status', () => {
  const suite = useSuite(() => PlayersDriver.start(), { eachTest: (h) => h.newUser() });

  it('a player with nothing on record may do everything, and so may one the service never heard of', async () => {
    const h = suite.current;
    const nothing = {
      user_id: h.userId,
      ...ALLOWED,
      restrictions: [],
      limits: [],
      reality_check_interval_seconds: 3600,
    };
    expect(await h.status()).toEqual(nothing);
    const stranger = 'never seen: ünïcode & spaces';
    const response = await h.statusOf(stranger);
    expect([response.statusCode, response.json()]).toEqual([200, { ...nothing, user_id: stranger }]);
  });

  it("self_excluded by the tenant's own exclusion of the user until it expires; withdrawals stay open", async () => {
    const h = suite.current;
    const exclusion = await h.exclude('duration_24h', { email: uniqueEmail() });
    expect(await h.status()).toMatchObject({
      ...EXCLUDED,
      restrictions: [{ code: 'self_excluded', until: exclusion.expires_at }],
    });
    await h.t.advance(DAY - 1);
    expect(await h.restrictions()).toEqual([['self_excluded', exclusion.expires_at]]);
    await h.t.advance(1);
    expect(await h.status()).toMatchObject({ ...ALLOWED, restrictions: [] });
  });

  it("with email or phone, the register and the regulator's list count as the live check counts them", async () => {
    const h = suite.current;
    const email = uniqueEmail();
    const phone = uniquePhone();
    // Another operator's permanent exclusion of the mailbox, and the regulator's six months of the phone.
    const other = await h.otherTenant();
    other.newUser();
    await other.exclude('duration_permanent', { email });
    const listed = await h.t.backoffice('POST', '/regulator/exclusions', {
      entries: [{ phone, duration: 'duration_6m', environment: 'sandbox' }],
    });
    expect(listed.statusCode).toBe(201);
    const regulatorEnd = (
      await h.api('GET', `/v1/exclusions/check?phone=${encodeURIComponent(phone)}`)
    ).json().expires_at;

    // The player's own id knows nothing of either: only their contacts do.
    expect(await h.restrictions()).toEqual([]);
    // The register's canonical form: case, dots and +tags are the same mailbox.
    const variant = email.replace('@', '+casino@').toUpperCase();
    expect(await h.restrictions({ email: variant })).toEqual([['self_excluded', null]]);
    expect(await h.restrictions({ phone })).toEqual([['self_excluded', regulatorEnd]]);
    // One entry, the most restrictive: the permanent exclusion outlasts the tenant's own day and the six months.
    await h.exclude('duration_24h', { email: uniqueEmail() });
    expect(await h.restrictions({ phone })).toEqual([['self_excluded', regulatorEnd]]);
    expect(await h.restrictions({ email, phone })).toEqual([['self_excluded', null]]);
    await h.t.advance(DAY);
    expect(await h.restrictions()).toEqual([]);
    expect(await h.status({ phone })).toMatchObject({
      ...EXCLUDED,
      restrictions: [{ code: 'self_excluded', until: regulatorEnd }],
    });
  });

  it('timed_out until the time-out ends, at this tenant only', async () => {
    const h = suite.current;
    const timeOut = await h.takeTimeOut('duration_24h');
    expect(await h.status()).toMatchObject({
      ...EXCLUDED,
      restrictions: [{ code: 'timed_out', until: timeOut.ends_at }],
    });
    const other = await h.otherTenant();
    expect((await other.statusOf(h.userId)).json()).toMatchObject({ ...ALLOWED, restrictions: [] });
    await h.t.advance(DAY - 1);
    expect(await h.restrictions()).toEqual([['timed_out', timeOut.ends_at]]);
    await h.t.advance(1);
    expect(await h.status()).toMatchObject({ ...ALLOWED, restrictions: [] });
  });

  it('a sanctions hold says account_under_review and nothing more, until a reviewer clears it', async () => {
    const h = suite.current;
    const hit = await h.screenSanctions('SanctionedSam');
    expect(hit.status).toBe('hit_review_pending');
    const response = await h.statusOf(h.userId);
    expect(response.json()).toEqual({
      user_id: h.userId,
      ...UNDER_REVIEW,
      restrictions: [{ code: 'account_under_review', until: null }],
      limits: [],
      reality_check_interval_seconds: 3600,
    });
    for (const text of [hit.case_id!, hit.screen_id!, 'sanction', 'SANDBOX', 'hit', 'match'])
      expect(response.body.toLowerCase()).not.toContain(text.toLowerCase());
    // It stays past the review's due time: only a decision ends it.
    await h.t.advance(3 * DAY);
    expect(await h.restrictions()).toEqual([['account_under_review', null]]);
    await h.decide('sanctions', hit.case_id!, { decision: 'cleared' });
    expect(await h.status()).toMatchObject({ ...ALLOWED, restrictions: [] });
  });

  it('a confirmed sanctions hit and an AML hold at once are still one account_under_review', async () => {
    const h = suite.current;
    const hit = await h.screenSanctions('SanctionedSam');
    await h.decide('sanctions', hit.case_id!, { decision: 'confirmed' });
    const held = await h.screenWithdrawal(1_000_000);
    expect(held.decision).toBe('hold');
    const response = await h.statusOf(h.userId);
    expect(response.json().restrictions).toEqual([{ code: 'account_under_review', until: null }]);
    for (const text of [hit.case_id!, held.case_id!, 'R-001']) expect(response.body).not.toContain(text);
    // Clearing the AML case leaves the confirmed hit: the account stays under review.
    await h.decide('aml', held.case_id!, { action: 'clear' });
    expect(await h.restrictions()).toEqual([['account_under_review', null]]);
  });

  it('an AML hold, its escalation and a freeze are account_under_review; a cleared case is not', async () => {
    const h = suite.current;
    const held = await h.screenWithdrawal(1_000_000);
    expect(held.decision).toBe('hold');
    expect(await h.status()).toMatchObject({
      ...UNDER_REVIEW,
      restrictions: [{ code: 'account_under_review', until: null }],
    });
    await h.decide('aml', held.case_id!, { action: 'confirm_hold' });
    await h.decide('aml', held.case_id!, { action: 'escalate' });
    await h.t.advance(3 * DAY);
    expect(await h.restrictions()).toEqual([['account_under_review', null]]);
    await h.decide('aml', held.case_id!, { action: 'clear' });
    expect(await h.status()).toMatchObject({ ...ALLOWED, restrictions: [] });

    // A freeze is final: the account stays under review however long it is.
    const again = await h.screenWithdrawal(1_500_000);
    await h.decide('aml', again.case_id!, { action: 'freeze' });
    await h.t.advance(90 * DAY);
    expect(await h.restrictions()).toEqual([['account_under_review', null]]);
  });

  it('kyc_required while a withdrawal waits on verification: until approval, or until the check lapses', async () => {
    const h = suite.current;
    const check = await h.startKyc(250_000);
    expect(check.withdrawal_held).toBe(true);
    expect(await h.status()).toMatchObject({
      can_play: true,
      can_deposit: true,
      can_withdraw: false,
      marketing_allowed: true,
      restrictions: [{ code: 'kyc_required', until: null }],
    });
    await h.reviewKyc(check.kyc_check_id!, 'approve');
    expect(await h.status()).toMatchObject({ ...ALLOWED, restrictions: [] });

    // A rejected check still holds its withdrawal, as GET /v1/kyc/status says.
    h.newUser();
    const rejected = await h.startKyc(250_000);
    await h.reviewKyc(rejected.kyc_check_id!, 'reject');
    expect(await h.restrictions()).toEqual([['kyc_required', null]]);

    // Another player's check waits on them; after 7 days without activity it lapses and the withdrawal is cancelled.
    h.newUser();
    await h.startKyc(30_000);
    await h.t.advance(7 * DAY - 1);
    expect(await h.restrictions()).toEqual([['kyc_required', null]]);
    await h.t.advance(1);
    expect(await h.restrictions()).toEqual([]);
  });

  it('lists every limit in force of every kind with its use, as the limits listing counts it', async () => {
    const h = suite.current;
    const deposit = await h.setLimit('deposit', 'limit_daily', 10_000);
    const loss = await h.setLimit('loss', 'limit_daily', 5_000);
    const wager = await h.setLimit('wager', 'limit_weekly', 20_000);
    const playTime = await h.setLimit('play_time', 'limit_session', 3_600);
    await h.commitDeposit(2_500);
    await h.amlEvent('wager', 1_000);
    await h.amlEvent('settlement', 400);

    // In the listing's order: deposit limits first, then the other kinds.
    const limits = (await h.status()).limits as object[];
    expect(limits).toEqual([
      {
        limit_id: deposit.limit_id,
        limit_kind: 'deposit',
        limit_type: 'limit_daily',
        amount_cents: 10_000,
        currency: 'USD',
        spent_cents: 2_500,
        remaining_cents: 7_500,
        next_reset_at: h.at(DAY),
      },
      {
        limit_id: loss.limit_id,
        limit_kind: 'loss',
        limit_type: 'limit_daily',
        amount_cents: 5_000,
        currency: 'USD',
        spent_cents: 600,
        remaining_cents: 4_400,
        next_reset_at: h.at(DAY),
      },
      {
        limit_id: playTime.limit_id,
        limit_kind: 'play_time',
        limit_type: 'limit_session',
        amount_seconds: 3_600,
        spent_seconds: 0,
        remaining_seconds: 3_600,
        next_reset_at: null,
      },
      {
        limit_id: wager.limit_id,
        limit_kind: 'wager',
        limit_type: 'limit_weekly',
        amount_cents: 20_000,
        currency: 'USD',
        spent_cents: 1_000,
        remaining_cents: 19_000,
        next_reset_at: h.at(7 * DAY),
      },
    ]);
    // The same figures as GET /v1/limits?limit_kind=all.
    const listed = (await h.api('GET', `/v1/limits?user_id=${h.userId}&limit_kind=all`)).json().limits;
    expect(listed).toHaveLength(limits.length);
    for (const [i, limit] of limits.entries()) expect(listed[i]).toMatchObject(stripKind(limit));
    // Limits restrict nothing by themselves: they are the room left, not a block.
    expect(await h.status()).toMatchObject({ ...ALLOWED, restrictions: [] });
  });

  it('play_time_exhausted until old play leaves the window; the reality-check interval is the one sessions use', async () => {
    const h = suite.current;
    await h.setLimit('play_time', 'limit_daily', 30 * 60);
    const start = h.now();
    expect(
      (await h.api('POST', '/v1/play-sessions', { user_id: h.userId, session_id: 's1', started_at: start }))
        .statusCode,
    ).toBe(201);
    await h.t.advance(30 * MINUTE);
    // The operator ends play at the session's ends_at (play_session.limit_reached).
    expect((await h.api('POST', '/v1/play-sessions/s1/end', { ended_at: h.now() })).statusCode).toBe(200);
    expect(await h.status()).toMatchObject({
      ...ALLOWED,
      can_play: false,
      marketing_allowed: false,
      // Free again once a whole second of the day's allowance is back.
      restrictions: [{ code: 'play_time_exhausted', until: h.at(DAY - 30 * MINUTE + 1) }],
    });
    const interval = await h.api('PUT', `/v1/players/${h.userId}/reality-check`, { interval_seconds: 900 });
    expect(interval.statusCode).toBe(200);
    expect(await h.status()).toMatchObject({ reality_check_interval_seconds: 900 });
    await h.t.advance(DAY - 30 * MINUTE + 1);
    expect(await h.status()).toMatchObject({ ...ALLOWED, restrictions: [] });
  });

  it('bad input is 4xx in the error shape, never a 500', async () => {
    const h = suite.current;
    const cases: [string, Record<string, string>, number, string][] = [
      // Past the router's 200 characters a path parameter is refused before the route.
      ['p'.repeat(201), {}, 414, 'uri_too_long'],
      ['', {}, 400, 'invalid_request'],
      [h.userId, { email: 'not-an-email' }, 400, 'invalid_payload'],
      [h.userId, { email: `${'a'.repeat(320)}@example.com` }, 400, 'invalid_payload'],
      [h.userId, { phone: '12345' }, 400, 'invalid_payload'],
      [h.userId, { phone: '+1'.padEnd(70, '5') }, 400, 'invalid_payload'],
    ];
    for (const [userId, query, status, error] of cases) {
      const response = await h.statusOf(userId, query);
      expect([userId.length, query, response.statusCode, response.json()]).toEqual([
        userId.length,
        query,
        status,
        { error, message: expect.any(String), request_id: expect.any(String) },
      ]);
    }
    const anonymous = await h.t.inject({ method: 'GET', url: `/v1/players/${h.userId}/status` });
    expect([anonymous.statusCode, anonymous.json().error]).toEqual([401, 'missing_credentials']);
  });
});

/** A deposit limit's row in the listing has no limit_kind (the spec's shape); the status names it. */
function stripKind(limit: object): object {
  const { limit_kind, ...rest } = limit as { limit_kind: string };
  return limit_kind === 'deposit' ? rest : limit;
}
