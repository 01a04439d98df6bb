import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { DAY } from '../../../test/helpers/units.js';
import { KycDriver } from './kyc.test-support.js';

describe('KYC checks: manual review and abandonment', () => {
  const suite = useSuite(() => KycDriver.start(), { eachTest: (d) => d.newUser() });

  it('manual review: admin keys approve or reject a non-final check; standard keys get 403 forbidden', async () => {
    const bed = suite.current;
    const { start, status, tier, review, webhooks } = bed;
    const body = (await start(250_000)).json();
    const standard = await review(body.kyc_check_id, 'approve', bed.tenant.apiKey);
    expect(standard.statusCode).toBe(403);
    expect(standard.json().error).toBe('forbidden');
    expect(await status(body.kyc_check_id)).toMatchObject({ status: 'not_started' });

    // Authorisation comes before validation: a standard key learns nothing from a malformed body.
    const malformed = await bed.t.api(bed.tenant.apiKey, 'POST', '/v1/kyc/manual-review', { decision: 'x' });
    expect(malformed.statusCode).toBe(403);
    expect(malformed.json().error).toBe('forbidden');
    expect(
      (await bed.t.api(bed.adminKey, 'POST', '/v1/kyc/manual-review', { decision: 'x' })).statusCode,
    ).toBe(400);

    const approved = await review(body.kyc_check_id, 'approve');
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({
      kyc_check_id: body.kyc_check_id,
      status: 'approved',
      withdrawal_held: false,
    });
    const [event] = await webhooks('kyc.approved');
    expect(event?.data).toEqual({
      kyc_check_id: body.kyc_check_id,
      user_id: bed.userId,
      verified_tier: 'tier_2',
      release_withdrawal_id: `wd-${bed.userId}`,
    });
    expect(await webhooks('kyc.tier_upgraded')).toHaveLength(1);
    expect(await tier()).toMatchObject({ verified_tier: 'tier_2' });

    const again = await review(body.kyc_check_id, 'reject');
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('check_already_final');
    expect((await review('kyc_nope', 'approve')).json().error).toBe('kyc_check_not_found');
    const stranger = await bed.t.createTenant();
    const strangerAdmin = await bed.t.issueKey(stranger.tenantId, 'admin');
    expect((await review(body.kyc_check_id, 'reject', strangerAdmin)).json().error).toBe(
      'kyc_check_not_found',
    );
    const audit = await bed.t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'kyc.manual_review')
      .execute();
    expect(audit.some((a) => a.details.kyc_check_id === body.kyc_check_id)).toBe(true);
  });

  it('manual rejection of a submitted check emits kyc.rejected and leaves the tier as it was', async () => {
    const bed = suite.current;
    const { start, tier, vendor, review, webhooks } = bed;
    const body = (await start(30_000)).json();
    await vendor(body.vendor_access_token, 'begin');
    await vendor(body.vendor_access_token, 'submit');
    const rejected = await review(body.kyc_check_id, 'reject');
    expect(rejected.json()).toMatchObject({ status: 'rejected', withdrawal_held: true });
    const [event] = await webhooks('kyc.rejected');
    expect(event?.data).toMatchObject({
      kyc_check_id: body.kyc_check_id,
      user_id: bed.userId,
      status: 'rejected',
    });
    expect(await tier()).toMatchObject({ verified_tier: 'tier_0', verified_at: null });
    expect((await vendor(body.vendor_access_token, 'begin')).json().error).toBe('check_already_final');
  });

  it('expires after exactly 7 days without activity, not a second before, with kyc.expired', async () => {
    const bed = suite.current;
    const { start, status, webhooks } = bed;
    const body = (await start(30_000)).json();
    await bed.t.advance(7 * DAY - 1);
    expect(await status(body.kyc_check_id)).toMatchObject({ status: 'not_started' });
    expect(await webhooks('kyc.expired')).toEqual([]);
    await bed.t.advance(1);
    expect(await status(body.kyc_check_id)).toMatchObject({ status: 'expired', withdrawal_held: false });
    const [expired] = await webhooks('kyc.expired');
    expect(expired?.data).toMatchObject({
      kyc_check_id: body.kyc_check_id,
      user_id: bed.userId,
      status: 'expired',
      cancelled_withdrawal_id: `wd-${bed.userId}`,
    });
    // The user must restart: a new start creates a new check.
    const restarted = await start(30_000);
    expect(restarted.statusCode).toBe(201);
    expect(restarted.json().kyc_check_id).not.toBe(body.kyc_check_id);
  });

  it('a repeated start and each step of the vendor flow start the 7 days again', async () => {
    const bed = suite.current;
    const { start, status, vendor } = bed;
    const body = (await start(30_000)).json();
    await bed.t.advance(3 * DAY);
    // The first token has expired (1 hour); the user comes back, the tenant repeats the start for a fresh one.
    const again = await start(30_000);
    expect(again.statusCode).toBe(200);
    await bed.t.advance(1800);
    expect((await vendor(again.json().vendor_access_token, 'begin')).statusCode).toBe(200);
    await bed.t.advance(7 * DAY - 1);
    expect(await status(body.kyc_check_id)).toMatchObject({ status: 'in_progress' });
    await bed.t.advance(1);
    expect(await status(body.kyc_check_id)).toMatchObject({ status: 'expired' });
  });

  it('an approved check never expires', async () => {
    const bed = suite.current;
    const { start, status, review, webhooks } = bed;
    const body = (await start(30_000)).json();
    await review(body.kyc_check_id, 'approve');
    await bed.t.advance(8 * DAY);
    expect(await status(body.kyc_check_id)).toMatchObject({ status: 'approved' });
    expect(await webhooks('kyc.expired')).toEqual([]);
  });
});
