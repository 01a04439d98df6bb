import { beforeEach, describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { KycDriver } from './kyc.test-support.js';

describe('KYC start', () => {
  const suite = useSuite(() => KycDriver.start());
  let user = 0;
  let userId: string;
  beforeEach(() => {
    userId = `player-${++user}`;
  });

  const start = (amount: unknown, extra: object = {}, id = userId, apiKey = suite.current.tenant.apiKey) =>
    suite.current.t.api(apiKey, 'POST', '/v1/kyc/start', {
      user_id: id,
      email: 'player@example.com',
      phone: '+15555550100',
      withdrawal_amount_cents: amount,
      currency: 'USD',
      ...extra,
    });

  it('takes the fast path up to USD 200 of lifetime withdrawals', async () => {
    const response = await start(20_000);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      kyc_check_id: null,
      user_id: userId,
      required_tier: 'tier_0',
      required_documents: [],
      withdrawal_held: false,
      withdrawal_remaining_cents: 0,
      message: expect.stringContaining('0.00 USD'),
    });
    expect((await start(5_000)).json()).toMatchObject({ withdrawal_remaining_cents: 15_000 });
  });

  it.each([
    [20_001, 'tier_1', ['email_otp', 'phone_otp']],
    [200_000, 'tier_1', ['email_otp', 'phone_otp']],
    [200_001, 'tier_2', ['government_id', 'selfie']],
    [2_000_000, 'tier_2', ['government_id', 'selfie']],
    [2_000_001, 'tier_3', ['government_id', 'selfie', 'proof_of_address']],
    [10_000_000, 'tier_3', ['government_id', 'selfie', 'proof_of_address']],
    [10_000_001, 'tier_4', ['government_id', 'selfie', 'proof_of_address', 'source_of_funds']],
  ])('a first withdrawal of %i minor units needs %s', async (amount, tier, documents) => {
    const { t, tenant } = suite.current;
    const response = await start(amount, { withdrawal_id: 'wd-1' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      kyc_check_id: expect.stringMatching(/^kyc_/),
      user_id: userId,
      required_tier: tier,
      required_documents: documents,
      vendor_access_token: expect.stringMatching(/^kyc_vt_[A-Za-z0-9_-]{43}$/),
      vendor_expires_in: 3600,
      withdrawal_held: true,
      estimated_clear_time: expect.any(String),
    });
    const status = await t.api(tenant.apiKey, 'GET', `/v1/kyc/status?kyc_check_id=${body.kyc_check_id}`);
    expect(status.json()).toMatchObject({
      status: 'not_started',
      required_tier: tier,
      withdrawal_held: true,
    });
  });

  it('stores the vendor token only as its SHA-256 hash', async () => {
    const { t } = suite.current;
    const body = (await start(20_001)).json();
    const row = await t.db
      .selectFrom('kyc_checks')
      .selectAll()
      .where('kyc_check_id', '=', body.kyc_check_id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(body.vendor_access_token);
    expect(row.vendor_token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('repeats an open check with 200 and a fresh token; another tier while it is open is 409', async () => {
    const { t } = suite.current;
    const first = await start(30_000);
    expect(first.statusCode).toBe(201);
    // Another amount that needs the same tier is the same logical start.
    const again = await start(25_000);
    expect(again.statusCode).toBe(200);
    const { vendor_access_token: oldToken, ...firstRest } = first.json();
    const { vendor_access_token: newToken, ...againRest } = again.json();
    expect(againRest).toEqual(firstRest);
    expect(newToken).not.toBe(oldToken);
    // The re-issued token replaces the old one.
    expect(
      (await t.inject({ method: 'POST', url: `/v1/kyc/sandbox-vendor/${oldToken}/begin` })).statusCode,
    ).toBe(404);
    expect(
      (await t.inject({ method: 'POST', url: `/v1/kyc/sandbox-vendor/${newToken}/begin` })).statusCode,
    ).toBe(200);

    const other = await start(300_000);
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({
      error: 'already_in_progress',
      kyc_check_id: first.json().kyc_check_id,
    });
    // Within the verified tier the fast path still answers, open check or not.
    expect((await start(10_000)).json()).toMatchObject({ kyc_check_id: null, withdrawal_held: false });
  });

  it('simultaneous identical starts create one check', async () => {
    const responses = await Promise.all(Array.from({ length: 5 }, () => start(30_000)));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(responses.map((r) => r.json().kyc_check_id)).size).toBe(1);
  });

  it.each([
    [{ withdrawal_amount_cents: 0 }, 'invalid_amount'],
    [{ withdrawal_amount_cents: -1 }, 'invalid_amount'],
    [{ withdrawal_amount_cents: 100.5 }, 'invalid_amount'],
    [{ withdrawal_amount_cents: '100' }, 'invalid_amount'],
    [{ withdrawal_amount_cents: undefined }, 'invalid_amount'],
    [{ currency: 'usd' }, 'invalid_request'],
    [{ email: 'not-an-email' }, 'invalid_request'],
    [{ user_id: '' }, 'invalid_request'],
    [{ surprise: true }, 'invalid_request'],
  ])('rejects %j with 400 %s', async (change, code) => {
    const { t } = suite.current;
    const response = await start(30_000, change);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: code, request_id: expect.any(String) });
    expect(await t.db.selectFrom('kyc_checks').selectAll().where('user_id', '=', userId).execute()).toEqual(
      [],
    );
  });

  it('a currency without an FX rate is 400 invalid_amount naming the currency', async () => {
    const response = await start(30_000, { currency: 'XAU' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_amount');
    expect(response.json().message).toContain('XAU');
  });

  it('converts other currencies to USD with the back-office FX table (minor units per currency)', async () => {
    const { t } = suite.current;
    expect((await t.backoffice('PUT', '/fx-rates/EUR', { usd_per_unit: 1.1 })).statusCode).toBe(200);
    expect((await t.backoffice('PUT', '/fx-rates/JPY', { usd_per_unit: 0.0066 })).statusCode).toBe(200);
    // EUR 181.82 = USD 200.002 → 20,000 cents (rounded): still within tier_0.
    expect((await start(18_182, { currency: 'EUR' })).json()).toMatchObject({
      required_tier: 'tier_0',
      withdrawal_remaining_cents: 0,
    });
    // EUR 181.83 = USD 200.013 → 20,001 cents: tier_1.
    expect((await start(18_183, { currency: 'EUR' }, `${userId}-b`)).json()).toMatchObject({
      required_tier: 'tier_1',
    });
    // JPY has no minor unit: 30,303 yen = USD 199.9998 → 20,000 cents; 30,304 yen → 20,001 cents.
    expect((await start(30_303, { currency: 'JPY' }, `${userId}-c`)).statusCode).toBe(200);
    expect((await start(30_304, { currency: 'JPY' }, `${userId}-d`)).statusCode).toBe(201);
    // What is left is said in the request currency, rounded down: EUR 100 is USD 110, and USD 90 left is EUR 81.81.
    expect((await start(10_000, { currency: 'USD' }, `${userId}-e`)).json().withdrawal_remaining_cents).toBe(
      10_000,
    );
    expect((await start(10_000, { currency: 'EUR' }, `${userId}-f`)).json().withdrawal_remaining_cents).toBe(
      8_181,
    );
  });

  it("another tenant's check is 404 kyc_check_not_found, like an unknown one", async () => {
    const { t, tenant } = suite.current;
    const body = (await start(30_000)).json();
    const stranger = await t.createTenant();
    const foreign = await t.api(stranger.apiKey, 'GET', `/v1/kyc/status?kyc_check_id=${body.kyc_check_id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('kyc_check_not_found');
    expect((await t.api(tenant.apiKey, 'GET', '/v1/kyc/status?kyc_check_id=kyc_nope')).json().error).toBe(
      'kyc_check_not_found',
    );
    // The stranger's user of the same id starts from nothing.
    expect((await start(20_000, {}, userId, stranger.apiKey)).statusCode).toBe(200);
  });

  it('a live tenant gets 403 cutover_required until KYC is cut over, then 409 while the deployment has no production vendor', async () => {
    const { t } = suite.current;
    const live = await t.createTenant({ environment: 'live' });
    const before = await start(20_000, {}, userId, live.apiKey);
    expect(before.statusCode).toBe(403);
    expect(before.json().error).toBe('cutover_required');
    await t.backoffice('PUT', `/tenants/${live.tenantId}/cutover`, { areas: ['kyc'] });
    const after = await start(20_000, {}, userId, live.apiKey);
    expect(after.statusCode).toBe(409);
    expect(after.json().error).toBe('vendor_not_configured');
  });

  it('requires a bearer key', async () => {
    const { t } = suite.current;
    const response = await t.inject({ method: 'POST', url: '/v1/kyc/start', payload: {} });
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('missing_credentials');
  });
});
