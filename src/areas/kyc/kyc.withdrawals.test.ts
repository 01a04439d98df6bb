import { beforeEach, describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { KycDriver } from './kyc.test-support.js';

describe('KYC tier record, completed withdrawals and the FX table', () => {
  const suite = useSuite(() => KycDriver.start());
  let user = 0;
  let userId: string;
  beforeEach(() => {
    userId = `player-${++user}`;
  });

  const now = () => suite.current.t.platform.clock.now().toISOString();
  const completed = (amount_cents: number, withdrawal_id = `wd-${Math.random()}`, extra: object = {}) => {
    const { t, tenant } = suite.current;
    return t.api(tenant.apiKey, 'POST', '/v1/kyc/withdrawal-completed', {
      user_id: userId,
      withdrawal_id,
      amount_cents,
      currency: 'USD',
      completed_at: now(),
      ...extra,
    });
  };
  const start = (amount: number) => {
    const { t, tenant } = suite.current;
    return t.api(tenant.apiKey, 'POST', '/v1/kyc/start', {
      user_id: userId,
      email: 'player@example.com',
      phone: '+15555550100',
      withdrawal_amount_cents: amount,
      currency: 'USD',
    });
  };
  const tier = async () => {
    const { t, tenant } = suite.current;
    return (await t.api(tenant.apiKey, 'GET', `/v1/kyc/tier?user_id=${userId}`)).json();
  };

  it('an unknown user is at tier_0 with nothing withdrawn', async () => {
    const { t, tenant } = suite.current;
    const response = await t.api(tenant.apiKey, 'GET', `/v1/kyc/tier?user_id=${userId}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user_id: userId,
      verified_tier: 'tier_0',
      verified_at: null,
      max_withdrawal_cents: 20_000,
      cumulative_withdrawn_cents: 0,
      next_tier_required_at_cents: 20_001,
    });
  });

  it('withdrawal-completed is idempotent on withdrawal_id: 201, then 200 with the same body, 409 if different', async () => {
    const { t, tenant } = suite.current;
    const first = await completed(5_000, `wd-${userId}`);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      withdrawal_id: `wd-${userId}`,
      user_id: userId,
      amount_cents: 5_000,
      currency: 'USD',
      usd_cents: 5_000,
      cumulative_withdrawn_cents: 5_000,
      completed_at: now(),
      recorded_at: now(),
    });
    await completed(1_000);
    const again = await t.api(tenant.apiKey, 'POST', '/v1/kyc/withdrawal-completed', {
      user_id: userId,
      withdrawal_id: `wd-${userId}`,
      amount_cents: 5_000,
      currency: 'USD',
      completed_at: first.json().completed_at,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const different = await completed(6_000, `wd-${userId}`, { completed_at: first.json().completed_at });
    expect(different.statusCode).toBe(409);
    expect(different.json().error).toBe('duplicate_withdrawal');
    // Counted once: 5,000 + 1,000.
    expect((await tier()).cumulative_withdrawn_cents).toBe(6_000);
  });

  it('the lifetime total decides the next start: 15,000 done, then 5,000 fits and 5,001 needs tier_1', async () => {
    await completed(15_000);
    expect((await start(5_000)).json()).toMatchObject({
      kyc_check_id: null,
      required_tier: 'tier_0',
      withdrawal_remaining_cents: 0,
    });
    expect(await tier()).toMatchObject({ max_withdrawal_cents: 5_000, cumulative_withdrawn_cents: 15_000 });
    const above = await start(5_001);
    expect(above.statusCode).toBe(201);
    expect(above.json().required_tier).toBe('tier_1');
  });

  it('once past USD 200, even one cent needs tier_1: the user never needs only tier_0 again', async () => {
    await completed(20_001);
    expect(await tier()).toMatchObject({ verified_tier: 'tier_0', max_withdrawal_cents: 0 });
    const response = await start(1);
    expect(response.statusCode).toBe(201);
    expect(response.json().required_tier).toBe('tier_1');
  });

  it('counts other currencies in USD, and refuses a currency without a rate', async () => {
    const { t } = suite.current;
    await t.backoffice('PUT', '/fx-rates/GBP', { usd_per_unit: 1.25 });
    const response = await completed(10_000, undefined, { currency: 'GBP' });
    expect(response.json()).toMatchObject({
      amount_cents: 10_000,
      currency: 'GBP',
      usd_cents: 12_500,
      cumulative_withdrawn_cents: 12_500,
    });
    const unknown = await completed(10_000, undefined, { currency: 'CHF' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      error: 'invalid_amount',
      message: expect.stringContaining('CHF'),
    });
    expect((await completed(0)).json().error).toBe('invalid_amount');
  });

  it('the verified tier never goes down: approving a lower check keeps the higher tier and emits no upgrade', async () => {
    const { t, receiver, tenant, adminKey } = suite.current;
    const body = (await start(30_000)).json();
    // The user was verified at tier_3 in the meantime (e.g. by an earlier check); approving the tier_1 check must not lower it.
    await t.db
      .insertInto('kyc_users')
      .values({
        tenant_id: tenant.tenantId,
        user_id: userId,
        verified_tier: 'tier_3',
        verified_at: new Date(now()),
        updated_at: new Date(now()),
      })
      .execute();
    await t.api(adminKey, 'POST', '/v1/kyc/manual-review', {
      kyc_check_id: body.kyc_check_id,
      decision: 'approve',
      reason: 'ok',
    });
    expect(await tier()).toMatchObject({ verified_tier: 'tier_3' });
    await t.deliverWebhooks();
    const events = receiver.verified(tenant.signingSecret).filter((e) => e.data.user_id === userId);
    expect(events.find((e) => e.event === 'kyc.approved')?.data.verified_tier).toBe('tier_3');
    expect(events.filter((e) => e.event === 'kyc.tier_upgraded')).toEqual([]);
    // Withdrawals never lower it either.
    await completed(5_000_000);
    expect(await tier()).toMatchObject({ verified_tier: 'tier_3', cumulative_withdrawn_cents: 5_000_000 });
  });

  it('the back office keeps the FX table; USD stays 1', async () => {
    const { t } = suite.current;
    const put = await t.backoffice('PUT', '/fx-rates/EUR', { usd_per_unit: 1.0845 });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ currency: 'EUR', usd_per_unit: 1.0845, updated_at: now() });
    const listed = (await t.backoffice('GET', '/fx-rates')).json().rates;
    expect(listed).toEqual(
      expect.arrayContaining([expect.objectContaining({ currency: 'USD', usd_per_unit: 1 }), put.json()]),
    );
    expect((await t.backoffice('PUT', '/fx-rates/USD', { usd_per_unit: 2 })).statusCode).toBe(400);
    expect((await t.backoffice('PUT', '/fx-rates/EUR', { usd_per_unit: 0 })).statusCode).toBe(400);
    expect((await t.backoffice('PUT', '/fx-rates/eur', { usd_per_unit: 1 })).statusCode).toBe(400);
    expect((await t.inject({ method: 'GET', url: '/backoffice/v1/fx-rates' })).statusCode).toBe(401);
  });
});
