import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { DAY } from '../../../test/helpers/units.js';
import { KycDriver } from './kyc.test-support.js';

describe('KYC checks: sandbox vendor triggers and flow', () => {
  const suite = useSuite(() => KycDriver.start(), { eachTest: (d) => d.newUser() });

  it('autoapprove: approved at once with kyc.approved and kyc.tier_upgraded', async () => {
    const bed = suite.current;
    const { start, status, tier, webhooks } = bed;
    bed.userId = `autoapprove-${bed.userId}`;
    const response = await start(200_001);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      required_tier: 'tier_2',
      withdrawal_held: false,
      estimated_clear_time: 'immediate',
    });
    expect(await status(body.kyc_check_id)).toMatchObject({ status: 'approved', withdrawal_held: false });
    const [approved] = await webhooks('kyc.approved');
    expect(approved?.data).toEqual({
      kyc_check_id: body.kyc_check_id,
      user_id: bed.userId,
      verified_tier: 'tier_2',
      release_withdrawal_id: `wd-${bed.userId}`,
    });
    const [upgraded] = await webhooks('kyc.tier_upgraded');
    expect(upgraded?.data).toMatchObject({
      kyc_check_id: body.kyc_check_id,
      user_id: bed.userId,
      status: 'approved',
      previous_tier: 'tier_0',
      verified_tier: 'tier_2',
    });
    expect(await tier()).toMatchObject({
      verified_tier: 'tier_2',
      verified_at: expect.any(String),
      max_withdrawal_cents: 2_000_000,
    });
  });

  it('a verified tier is a ceiling: up to it the fast path, one unit above a check for the next tier', async () => {
    const bed = suite.current;
    const { start } = bed;
    bed.userId = `autoapprove-${bed.userId}`;
    await start(20_001); // verified tier_1 at once
    expect((await start(200_000)).json()).toMatchObject({
      kyc_check_id: null,
      required_tier: 'tier_1',
      withdrawal_remaining_cents: 0,
    });
    const above = await start(200_001);
    expect(above.statusCode).toBe(201);
    expect(above.json().required_tier).toBe('tier_2');
  });

  it('autoreject: rejected with kyc.rejected, the withdrawal stays held; 422 ceiling_exceeded for a day', async () => {
    const bed = suite.current;
    const { start, status, webhooks } = bed;
    bed.userId = `autoreject-${bed.userId}`;
    const body = (await start(30_000)).json();
    expect(body.withdrawal_held).toBe(true);
    expect(await status(body.kyc_check_id)).toMatchObject({ status: 'rejected', withdrawal_held: true });
    const [rejected] = await webhooks('kyc.rejected');
    expect(rejected?.data).toMatchObject({
      kyc_check_id: body.kyc_check_id,
      user_id: bed.userId,
      status: 'rejected',
      withdrawal_id: `wd-${bed.userId}`,
    });
    expect(await webhooks('kyc.approved')).toEqual([]);

    const retry = await start(30_000);
    expect(retry.statusCode).toBe(422);
    expect(retry.json().error).toBe('ceiling_exceeded');
    // Within the verified tier a withdrawal still passes.
    expect((await start(20_000)).statusCode).toBe(200);
    await bed.t.advance(DAY);
    expect((await start(30_000)).statusCode).toBe(201);
  });

  it('any other user walks the vendor flow: begin (kyc.started), submit (kyc.submitted), then waits for review', async () => {
    const bed = suite.current;
    const { start, status, vendor, webhooks } = bed;
    const body = (await start(30_000)).json();
    expect(await status(body.kyc_check_id)).toMatchObject({ status: 'not_started' });
    expect((await vendor(body.vendor_access_token, 'submit')).json().error).toBe('vendor_flow_not_begun');

    const begun = await vendor(body.vendor_access_token, 'begin');
    expect(begun.statusCode).toBe(200);
    expect(begun.json()).toEqual({
      kyc_check_id: body.kyc_check_id,
      status: 'in_progress',
      required_tier: 'tier_1',
      required_documents: ['email_otp', 'phone_otp'],
    });
    const [started] = await webhooks('kyc.started');
    expect(started?.data).toMatchObject({
      kyc_check_id: body.kyc_check_id,
      user_id: bed.userId,
      status: 'in_progress',
    });

    expect((await vendor(body.vendor_access_token, 'submit')).json().status).toBe('pending_review');
    const [submitted] = await webhooks('kyc.submitted');
    expect(submitted?.data).toMatchObject({
      kyc_check_id: body.kyc_check_id,
      user_id: bed.userId,
      status: 'pending_review',
    });
    // Repeats change nothing and emit nothing.
    expect((await vendor(body.vendor_access_token, 'submit')).json().status).toBe('pending_review');
    expect(await webhooks('kyc.submitted')).toHaveLength(1);
    expect(await status(body.kyc_check_id)).toMatchObject({
      status: 'pending_review',
      withdrawal_held: true,
    });
  });

  it('a user id with both autoapprove and autoreject is rejected (the conservative outcome)', async () => {
    const bed = suite.current;
    const { start, status, webhooks } = bed;
    bed.userId = `autoapprove-autoreject-${bed.userId}`;
    const body = (await start(30_000)).json();
    expect(await status(body.kyc_check_id)).toMatchObject({ status: 'rejected', withdrawal_held: true });
    expect(await webhooks('kyc.rejected')).toHaveLength(1);
    expect(await webhooks('kyc.approved')).toEqual([]);
  });

  it('a walked check in pending_review is released by an admin approval: kyc.approved, kyc.tier_upgraded', async () => {
    const bed = suite.current;
    const { start, tier, vendor, webhooks } = bed;
    const body = (await start(200_001)).json();
    await vendor(body.vendor_access_token, 'begin');
    await vendor(body.vendor_access_token, 'submit');
    const approved = await bed.review(body.kyc_check_id, 'approve');
    expect(approved.json()).toMatchObject({ status: 'approved', withdrawal_held: false });
    const [event] = await webhooks('kyc.approved');
    expect(event?.data).toEqual({
      kyc_check_id: body.kyc_check_id,
      user_id: bed.userId,
      verified_tier: 'tier_2',
      release_withdrawal_id: `wd-${bed.userId}`,
    });
    expect((await webhooks('kyc.tier_upgraded'))[0]?.data).toMatchObject({
      kyc_check_id: body.kyc_check_id,
      status: 'approved',
      previous_tier: 'tier_0',
      verified_tier: 'tier_2',
    });
    expect(await tier()).toMatchObject({ verified_tier: 'tier_2' });
    // The walk's own events reached the tenant too, each verified as signed.
    expect(
      (await webhooks('kyc.started')).concat(await webhooks('kyc.submitted')).map((e) => e.data.status),
    ).toEqual(['in_progress', 'pending_review']);
  });

  it('the vendor flow answers 404 to unknown tokens, expired tokens and live tenants, and needs no bearer key', async () => {
    const bed = suite.current;
    const { start, vendor } = bed;
    expect((await vendor('kyc_vt_unknown', 'begin')).statusCode).toBe(404);
    const expiring = (await start(30_000)).json();
    await bed.t.advance(3600);
    expect((await vendor(expiring.vendor_access_token, 'begin')).json().error).toBe('kyc_check_not_found');

    const other = await bed.t.createTenant();
    const body = (
      await bed.t.api(other.apiKey, 'POST', '/v1/kyc/start', {
        user_id: bed.userId,
        email: 'p@example.com',
        phone: '+15555550100',
        withdrawal_amount_cents: 30_000,
        currency: 'USD',
      })
    ).json();
    await bed.t.db
      .updateTable('tenants')
      .set({ environment: 'live' })
      .where('tenant_id', '=', other.tenantId)
      .execute();
    expect((await vendor(body.vendor_access_token, 'begin')).statusCode).toBe(404);
  });
});
