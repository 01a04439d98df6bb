import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import { told, userId } from '../exclusions/exclusions.test-support.js';
import { createSession, embedApi, errorBody } from './embeds.test-support.js';

/** The deposit-limits embed's JSON endpoints: the session's player only, through the tenant API's verbs and events. */
describe('deposit-limits embed: the JSON endpoints', () => {
  const suite = useSuite(async (own) => {
    const d = own(await TenantDriver.start());
    return { t: d.t, hook: d.receiver, tenant: d.tenant };
  });

  async function limitsSession(body: Record<string, unknown> = {}) {
    const { t, tenant } = suite.current;
    const user = userId();
    return {
      user,
      ...(await createSession(t, tenant, {
        kind: 'deposit_limits',
        user_id: user,
        currency: 'EUR',
        ...body,
      })),
    };
  }

  it('sets, lowers and raises a limit with the cooling-off, shows spend and the pending increase, and cancels it', async () => {
    const { t, hook, tenant } = suite.current;
    const me = await limitsSession();
    const set = (limit_type: string, amount_cents: number) =>
      embedApi(t, 'POST', `${me.token}/limits`, { limit_type, amount_cents });
    const now = t.platform.clock.now().getTime();

    const created = await set('limit_weekly', 50_000);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      user_id: me.user,
      amount_cents: 50_000,
      currency: 'EUR',
      status: 'active',
      cooloff_seconds: 0,
    });
    expect((await set('limit_weekly', 20_000)).json()).toMatchObject({
      status: 'active',
      is_increase: false,
    });
    const raised = await set('limit_weekly', 200_000);
    expect(raised.json()).toMatchObject({
      status: 'pending',
      is_increase: true,
      current_limit_cents: 20_000,
      cooloff_seconds: 604_800,
      effective_from: new Date(now + 604_800_000).toISOString(),
    });

    // The tenant commits a deposit; the embed shows it against the limit.
    await t.api(tenant.apiKey, 'POST', '/v1/limits/commit', {
      user_id: me.user,
      transaction_id: `dep_${me.user}`,
      amount_cents: 5_000,
      currency: 'EUR',
      committed_at: new Date(now).toISOString(),
    });
    const view = await embedApi(t, 'GET', `${me.token}/limits`);
    expect(view.statusCode).toBe(200);
    expect(view.json()).toEqual({
      user_id: me.user,
      currency: 'EUR',
      limits: [
        expect.objectContaining({
          limit_type: 'limit_weekly',
          amount_cents: 20_000,
          spent_cents: 5_000,
          remaining_cents: 15_000,
          next_reset_at: new Date(now + 7 * 86_400_000).toISOString(),
          pending_change: expect.objectContaining({
            limit_id: raised.json().limit_id,
            amount_cents: 200_000,
          }),
        }),
      ],
    });

    const cancelled = await embedApi(t, 'DELETE', `${me.token}/limits/${raised.json().limit_id}`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ limit_id: raised.json().limit_id, status: 'cancelled' });
    await t.deliverWebhooks();
    expect(hook.verified(tenant.signingSecret).map((e) => e.event)).toEqual(
      expect.arrayContaining(['limit.created', 'limit.decreased', 'limit.cancelled']),
    );
    expect(told(hook, tenant, 'limit.created')).toContainEqual(expect.objectContaining({ user_id: me.user }));
  });

  it("reaches only the session's player: another player's pending increase is 404 and stays pending", async () => {
    const { t, tenant } = suite.current;
    const other = userId();
    const api = (body: object) => t.api(tenant.apiKey, 'POST', '/v1/limits', body);
    const requestedAt = t.platform.clock.now().toISOString();
    await api({
      user_id: other,
      limit_type: 'limit_daily',
      amount_cents: 1_000,
      currency: 'EUR',
      requested_at: requestedAt,
    });
    const theirs = await api({
      user_id: other,
      limit_type: 'limit_daily',
      amount_cents: 1_500,
      currency: 'EUR',
      requested_at: requestedAt,
    });
    expect(theirs.json().status).toBe('pending');
    const me = await limitsSession();
    const refused = await embedApi(t, 'DELETE', `${me.token}/limits/${theirs.json().limit_id}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual(errorBody('limit_not_found'));
    const list = await t.api(tenant.apiKey, 'GET', `/v1/limits?user_id=${other}`);
    expect(list.json().limits[0].pending_change.status).toBe('pending');
  });

  it("takes the currency the player's limits are kept in, and refuses a first session without one", async () => {
    const { t, tenant } = suite.current;
    const user = userId();
    const none = await t.api(tenant.apiKey, 'POST', '/v1/embeds/sessions', {
      kind: 'deposit_limits',
      user_id: user,
    });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual(errorBody('invalid_request'));
    await t.api(tenant.apiKey, 'POST', '/v1/limits', {
      user_id: user,
      limit_type: 'limit_daily',
      amount_cents: 1_000,
      currency: 'GBP',
      requested_at: t.platform.clock.now().toISOString(),
    });
    const session = await createSession(t, tenant, { kind: 'deposit_limits', user_id: user });
    expect((await embedApi(t, 'GET', `${session.token}/limits`)).json().currency).toBe('GBP');
  });

  it("answers bad amounts and types in the limits area's codes, and a self-exclusion session with 409", async () => {
    const { t, tenant } = suite.current;
    const me = await limitsSession();
    const zero = await embedApi(t, 'POST', `${me.token}/limits`, {
      limit_type: 'limit_daily',
      amount_cents: 0,
    });
    expect(zero.json()).toEqual(errorBody('invalid_amount'));
    const type = await embedApi(t, 'POST', `${me.token}/limits`, {
      limit_type: 'limit_yearly',
      amount_cents: 100,
    });
    expect(type.json()).toEqual(errorBody('unsupported_type'));
    const exclusion = await createSession(t, tenant, {
      kind: 'self_exclusion',
      user_id: userId(),
      email: 'a@example.com',
    });
    const wrongKind = await embedApi(t, 'GET', `${exclusion.token}/limits`);
    expect(wrongKind.statusCode).toBe(409);
    expect(wrongKind.json()).toEqual(errorBody('embed_kind_mismatch'));
  });

  it('stops working when the session expires, and is deleted with its contacts a day later', async () => {
    const { t } = suite.current;
    const me = await limitsSession({ email: 'keeps.me@example.com' });
    await t.advance(15 * 60);
    const expired = await embedApi(t, 'GET', `${me.token}/limits`);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual(errorBody('embed_session_expired'));
    const stored = () =>
      t.db
        .selectFrom('embed_sessions')
        .select('email')
        .where('embed_session_id', '=', me.embed_session_id)
        .execute();
    expect(await stored()).toEqual([{ email: 'keeps.me@example.com' }]);
    // The daily purge, past a day after the expiry.
    await t.advance(2 * 86_400);
    expect(await stored()).toEqual([]);
    const gone = await embedApi(t, 'GET', `${me.token}/limits`);
    expect(gone.json()).toEqual(errorBody('invalid_embed_token'));
  });
});
