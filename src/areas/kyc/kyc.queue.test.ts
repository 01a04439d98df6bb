import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { DAY, HOUR } from '../../../test/helpers/units.js';
import { KycDriver } from './kyc.test-support.js';

describe('KYC review queue: due times, alerts, abandonment and the audit of decisions', () => {
  const suite = useSuite(() => KycDriver.start(), { eachTest: (d) => d.newUser() });

  /** A check walked to pending_review by the player. */
  const submitted = async (id = suite.current.userId) => {
    const { start, vendor } = suite.current;
    const body = (await start(30_000, id)).json();
    await vendor(body.vendor_access_token, 'begin');
    expect((await vendor(body.vendor_access_token, 'submit')).json().status).toBe('pending_review');
    return body.kyc_check_id as string;
  };
  const queue = async (query: string) => {
    const { t, tenant } = suite.current;
    return (await t.backoffice('GET', `/kyc/reviews?tenant_id=${tenant.tenantId}&${query}`)).json();
  };
  const alertsOf = async (kind: string, subject: string) => {
    const body = (await suite.current.t.backoffice('GET', `/alerts?kind=${kind}&limit=1000`)).json();
    return (body.alerts as { subject: string }[]).filter((a) => a.subject === subject);
  };

  it('pending_review never expires: it waits on reviewers, and is due 48 hours after submission', async () => {
    const bed = suite.current;
    const { status, review, webhooks } = bed;
    const submittedAt = bed.t.platform.clock.now();
    const checkId = await submitted();
    await bed.t.advance(8 * DAY);
    expect(await status(checkId)).toMatchObject({ status: 'pending_review', withdrawal_held: true });
    expect(await webhooks('kyc.expired')).toEqual([]);
    const entry = (await queue('status=pending_review&limit=1000')).reviews.find(
      (r: { kyc_check_id: string }) => r.kyc_check_id === checkId,
    );
    expect(entry).toMatchObject({
      user_id: bed.userId,
      status: 'pending_review',
      due_at: new Date(submittedAt.getTime() + 48 * HOUR * 1000).toISOString(),
      sla_breached: true,
    });
    // Still decidable, however late.
    expect((await review(checkId, 'approve')).json().status).toBe('approved');
  });

  it('not_started and in_progress still expire after 7 days without the player', async () => {
    const bed = suite.current;
    const { start, status, vendor, webhooks } = bed;
    const notStarted = (await start(30_000)).json().kyc_check_id as string;
    const other = `${bed.userId}-b`;
    const inProgress = (await start(30_000, other)).json();
    await vendor(inProgress.vendor_access_token, 'begin');
    await bed.t.advance(7 * DAY);
    expect(await status(notStarted)).toMatchObject({ status: 'expired' });
    expect(await status(inProgress.kyc_check_id)).toMatchObject({ status: 'expired' });
    expect(await webhooks('kyc.expired')).toHaveLength(1);
    expect(await webhooks('kyc.expired', other)).toHaveLength(1);
  });

  it('due soon 4 hours before the due time, overdue at it; listed as overdue until decided', async () => {
    const bed = suite.current;
    const { review } = bed;
    const checkId = await submitted();
    await bed.t.advance(44 * HOUR - 1);
    expect(await alertsOf('review_due_soon', checkId)).toEqual([]);
    await bed.t.advance(1);
    expect(await alertsOf('review_due_soon', checkId)).toEqual([
      expect.objectContaining({ kind: 'review_due_soon', subject: checkId }),
    ]);
    await bed.t.advance(4 * HOUR - 1);
    expect(await alertsOf('review_overdue', checkId)).toEqual([]);
    const ids = (page: { reviews: { kyc_check_id: string }[] }) => page.reviews.map((r) => r.kyc_check_id);
    expect(ids(await queue('overdue=true&limit=1000'))).not.toContain(checkId);
    await bed.t.advance(1);
    expect(await alertsOf('review_overdue', checkId)).toEqual([
      expect.objectContaining({
        kind: 'review_overdue',
        subject: checkId,
        raised_at: bed.t.platform.clock.now().toISOString(),
      }),
    ]);
    expect(ids(await queue('overdue=true&limit=1000'))).toContain(checkId);
    await review(checkId, 'reject');
    expect(ids(await queue('overdue=true&limit=1000'))).not.toContain(checkId);
    expect(ids(await queue('overdue=false&status=rejected&limit=1000'))).toContain(checkId);
  });

  it('a check decided before its due time raises no alert', async () => {
    const bed = suite.current;
    const { review } = bed;
    const checkId = await submitted();
    await bed.t.advance(HOUR);
    await review(checkId, 'approve');
    await bed.t.advance(3 * DAY);
    expect(await alertsOf('review_due_soon', checkId)).toEqual([]);
    expect(await alertsOf('review_overdue', checkId)).toEqual([]);
  });

  it('the queue is oldest-due first and walked to its end by cursor; filtered by tenant', async () => {
    const bed = suite.current;
    const checks: string[] = [];
    for (let i = 0; i < 5; i++) {
      checks.push(await submitted(`${bed.userId}-${i}`));
      await bed.t.advance(60);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { reviews: { kyc_check_id: string; due_at: string }[]; next_cursor: string | null } =
        await queue(`status=pending_review&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.reviews.map((r) => r.kyc_check_id));
      cursor = page.next_cursor;
    } while (cursor);
    // Earlier tests' checks are decided; these five are the whole pending queue, in submission order.
    expect(seen).toEqual(checks);
    const stranger = await bed.t.createTenant();
    expect(
      (await bed.t.backoffice('GET', `/kyc/reviews?tenant_id=${stranger.tenantId}`)).json().reviews,
    ).toEqual([]);
    expect((await bed.t.backoffice('GET', '/kyc/reviews?cursor=zzz')).statusCode).toBe(400);
  });

  it('a manual review decision is audited with the admin key, the reason and the request id; no reason is 400', async () => {
    const bed = suite.current;
    const { review } = bed;
    const checkId = await submitted();
    for (const body of [
      { kyc_check_id: checkId, decision: 'approve' },
      { kyc_check_id: checkId, decision: 'approve', reason: ' ' },
    ]) {
      expect((await bed.t.api(bed.adminKey, 'POST', '/v1/kyc/manual-review', body)).statusCode).toBe(400);
    }
    const decided = await review(checkId, 'approve');
    expect(decided.statusCode).toBe(200);
    const log = (
      await bed.t.backoffice('GET', `/tenants/${bed.tenant.tenantId}/audit-log?limit=1000`)
    ).json();
    const entries = log.entries.filter(
      (e: { details: { kyc_check_id?: string } }) => e.details.kyc_check_id === checkId,
    );
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'kyc.manual_review',
        actor: expect.stringMatching(/\S/),
        request_id: decided.headers['x-request-id'],
        details: { kyc_check_id: checkId, decision: 'approve', reason: 'documents checked by hand' },
      }),
    ]);
    // The actor is the admin key's prefix: who decided, without the secret.
    expect(bed.adminKey.startsWith(entries[0].actor)).toBe(true);
    expect(entries[0].actor).not.toBe(bed.adminKey);
    const entry = (await queue('status=approved&limit=1000')).reviews.find(
      (r: { kyc_check_id: string }) => r.kyc_check_id === checkId,
    );
    expect(entry).toMatchObject({ decision_reason: 'documents checked by hand', sla_breached: false });
  });
});
