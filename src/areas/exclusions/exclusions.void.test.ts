import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import { asStaff, staffOf } from '../../../test/helpers/staff-driver.js';
import type { TestTenant } from '../../../test/helpers/test-service.js';
import {
  check,
  checkBatch,
  exclude,
  regulator,
  show,
  tenantWithHook,
  told,
  uniqueEmail,
  uniquePhone,
  userId,
} from './exclusions.test-support.js';

interface AuditEntry {
  actor: string;
  action: string;
  details: Record<string, unknown>;
}

/**
 * The staff's remedy for a row registered in error: voiding stops it matching everywhere and tells every tenant
 * entitled to know of it; a permanent row needs a second member of staff. The tenant API cannot undo anything.
 */
describe('voiding an exclusion registered in error (back office)', () => {
  const suite = useSuite(() => TenantDriver.start());

  // Alice (a reviewer) voids and proposes; Bob (a supervisor) approves: two people, each signed in.
  const alice = () => staffOf(suite.current.t, 'reviewer');
  const bob = () => staffOf(suite.current.t, 'supervisor');
  const voidRow = async (id: string, body: object, by = alice()) =>
    asStaff(suite.current.t, await by, 'POST', `/exclusions/${id}/void`, body);
  const confirm = async (id: string, by = bob()) =>
    asStaff(suite.current.t, await by, 'POST', `/exclusions/${id}/void/confirm`);
  const staffView = (id: string) => suite.current.t.backoffice('GET', `/exclusions/${id}`);
  const snapshotIds = async (tenant: TestTenant) =>
    (await suite.current.t.api(tenant.apiKey, 'GET', '/v1/exclusions/snapshot?limit=1000'))
      .json<{ exclusions: { exclusion_id: string }[] }>()
      .exclusions.map((row) => row.exclusion_id);
  const auditLog = async (tenant: TestTenant) =>
    (await suite.current.t.backoffice('GET', `/tenants/${tenant.tenantId}/audit-log`)).json<{
      entries: AuditEntry[];
    }>().entries;
  const error = (code: string) => ({
    error: code,
    message: expect.any(String),
    request_id: expect.any(String),
  });

  it('voids a timed row at once: it stops matching everywhere, and exclusion.voided goes to its tenant and to those that showed it', async () => {
    const { t } = suite.current;
    const { tenant: a, hook: hookA } = await tenantWithHook(suite);
    const { tenant: b, hook: hookB } = await tenantWithHook(suite);
    const { tenant: quiet, hook: hookQuiet } = await tenantWithHook(suite);
    const [email, phone, user] = [uniqueEmail(), uniquePhone(), userId()];
    await show(t, b, [{ email }]);
    const created = (await exclude(t, a, { user_id: user, duration: 'duration_30d', email, phone })).json();
    expect((await check(t, b, { phone })).json().exclusion_id).toBe(created.exclusion_id);
    expect(await snapshotIds(a)).toContain(created.exclusion_id);
    expect(await snapshotIds(b)).toContain(created.exclusion_id);

    const voidedAt = await t.advance(3_600);
    const response = await voidRow(created.exclusion_id, { reason: 'The agent typed the wrong email' });
    const aliceId = (await alice()).member.staffId;
    expect([response.statusCode, response.json()]).toEqual([
      200,
      {
        exclusion_id: created.exclusion_id,
        environment: 'sandbox',
        origin: 'operator',
        tenant_id: a.tenantId,
        user_id: user,
        email: email.toLowerCase(),
        phone,
        duration: 'duration_30d',
        is_permanent: false,
        status: 'voided',
        effective_from: created.effective_from,
        expires_at: created.expires_at,
        voided_at: voidedAt,
        void_reason: 'The agent typed the wrong email',
        voided_by: aliceId,
        void_confirmed_by: null,
        pending_proposal: null,
      },
    ]);
    expect((await staffView(created.exclusion_id)).json()).toEqual(response.json());

    // It matches nowhere: live check (own and other tenant, email and phone), batch, snapshots.
    for (const tenant of [a, b, quiet]) {
      expect((await check(t, tenant, { email })).json()).toEqual({ is_excluded: false });
      expect((await check(t, tenant, { phone })).json()).toEqual({ is_excluded: false });
    }
    expect((await checkBatch(t, b, { contacts: [{ reference: 'p', email, phone }] })).json()).toEqual({
      results: [{ reference: 'p', is_excluded: false }],
    });
    expect(await snapshotIds(a)).not.toContain(created.exclusion_id);
    expect(await snapshotIds(b)).not.toContain(created.exclusion_id);

    await t.deliverWebhooks();
    const voided = (user_id: string | null, source: string) => ({
      exclusion_id: created.exclusion_id,
      user_id,
      duration: 'duration_30d',
      is_permanent: false,
      voided_at: voidedAt,
      source,
    });
    expect(told(hookA, a, 'exclusion.voided')).toEqual([voided(user, 'operator')]);
    expect(told(hookB, b, 'exclusion.voided')).toEqual([voided(null, 'regulator_comprehensive')]);
    // quiet checked the contacts only after the void (a live check records asynchronously): it was never told of
    // the row, and is not told of its void.
    expect(told(hookQuiet, quiet, 'exclusion.voided')).toEqual([]);

    expect((await auditLog(a)).filter((entry) => entry.action === 'exclusion.voided')).toEqual([
      expect.objectContaining({
        actor: aliceId,
        action: 'exclusion.voided',
        details: expect.objectContaining({
          exclusion_id: created.exclusion_id,
          reason: 'The agent typed the wrong email',
        }),
      }),
    ]);
    expect((await auditLog(b)).map((entry) => entry.action)).not.toContain('exclusion.voided');

    // A voided row never expires (no exclusion.expired later), and frees its key for the corrected registration.
    const corrected = await exclude(t, a, {
      user_id: user,
      duration: 'duration_30d',
      email: uniqueEmail(),
      phone,
    });
    expect(corrected.statusCode).toBe(201);
    expect((await check(t, b, { phone })).json().exclusion_id).toBe(corrected.json().exclusion_id);
    await t.advance(30 * 86_400);
    await t.deliverWebhooks();
    expect(told(hookA, a, 'exclusion.expired').map((data) => data.exclusion_id)).toEqual([
      corrected.json().exclusion_id,
    ]);
  });

  it('voids a regulator row for the tenants that showed it', async () => {
    const { t } = suite.current;
    const { tenant: b, hook: hookB } = await tenantWithHook(suite);
    const { tenant: quiet, hook: hookQuiet } = await tenantWithHook(suite);
    const phone = uniquePhone();
    await show(t, b, [{ phone }]);
    const [row] = (await regulator(t, [{ phone, duration: 'duration_1y', environment: 'sandbox' }])).json()
      .exclusions;
    const response = await voidRow(row.exclusion_id, { reason: 'Duplicate of another entry' });
    expect([response.statusCode, response.json()]).toEqual([
      200,
      expect.objectContaining({
        origin: 'regulator',
        tenant_id: null,
        status: 'voided',
        voided_by: (await alice()).member.staffId,
      }),
    ]);
    expect((await check(t, quiet, { phone })).json()).toEqual({ is_excluded: false });
    expect(await snapshotIds(b)).toEqual([]);
    await t.deliverWebhooks();
    expect(told(hookB, b, 'exclusion.voided')).toEqual([
      {
        exclusion_id: row.exclusion_id,
        user_id: null,
        duration: 'duration_1y',
        is_permanent: false,
        voided_at: response.json().voided_at,
        source: 'regulator_comprehensive',
      },
    ]);
    expect(told(hookQuiet, quiet, 'exclusion.voided')).toEqual([]);
  });

  it('voids a permanent row only when a second member of staff confirms the proposal', async () => {
    const { t } = suite.current;
    const { tenant: a, hook: hookA } = await tenantWithHook(suite);
    const { tenant: b, hook: hookB } = await tenantWithHook(suite);
    const email = uniqueEmail();
    await show(t, b, [{ email }]);
    const created = (
      await exclude(t, a, { user_id: userId(), duration: 'duration_permanent', email })
    ).json();
    const proposedAt = await t.advance(60);

    const [aliceId, bobId] = [(await alice()).member.staffId, (await bob()).member.staffId];
    const proposed = await voidRow(created.exclusion_id, { reason: 'Wrong player' });
    const proposal = {
      subject: 'exclusion',
      subject_id: created.exclusion_id,
      action: 'void',
      reason: 'Wrong player',
      proposed_by: aliceId,
      proposed_at: proposedAt,
      status: 'pending',
    };
    expect([proposed.statusCode, proposed.json()]).toEqual([
      202,
      expect.objectContaining({
        exclusion_id: created.exclusion_id,
        status: 'active',
        voided_at: null,
        voided_by: null,
        pending_proposal: expect.objectContaining(proposal),
      }),
    ]);
    expect((await staffView(created.exclusion_id)).json()).toMatchObject({
      status: 'active',
      pending_proposal: proposal,
    });

    // Until it is confirmed nothing changes: the row still matches, and no tenant is told of any void.
    const stillMatches = async () => {
      expect((await check(t, a, { email })).json()).toMatchObject({
        exclusion_id: created.exclusion_id,
        is_permanent: true,
      });
      expect(await snapshotIds(b)).toEqual([created.exclusion_id]);
    };
    await stillMatches();
    const again = await voidRow(created.exclusion_id, { reason: 'Wrong player' }, bob());
    expect([again.statusCode, again.json()]).toEqual([409, error('decision_already_proposed')]);
    // Alice cannot approve her own proposal (nor may a reviewer approve at all): Bob must.
    const selfConfirmed = await confirm(created.exclusion_id, alice());
    expect(selfConfirmed.statusCode).toBe(403);
    const token = await t.backoffice('POST', `/exclusions/${created.exclusion_id}/void/confirm`);
    expect([token.statusCode, token.json()]).toEqual([403, error('staff_session_required')]);
    await stillMatches();
    await t.deliverWebhooks();
    expect(hookA.of('exclusion.voided')).toEqual([]);
    expect(hookB.of('exclusion.voided')).toEqual([]);

    const voidedAt = await t.advance(60);
    const confirmed = await confirm(created.exclusion_id);
    expect([confirmed.statusCode, confirmed.json()]).toEqual([
      200,
      expect.objectContaining({
        status: 'voided',
        voided_at: voidedAt,
        void_reason: 'Wrong player',
        voided_by: aliceId,
        void_confirmed_by: bobId,
        pending_proposal: null,
      }),
    ]);
    expect((await check(t, a, { email })).json()).toEqual({ is_excluded: false });
    expect(await snapshotIds(a)).toEqual([]);
    expect(await snapshotIds(b)).toEqual([]);
    await t.deliverWebhooks();
    expect(told(hookA, a, 'exclusion.voided')).toEqual([
      expect.objectContaining({ exclusion_id: created.exclusion_id, is_permanent: true, source: 'operator' }),
    ]);
    expect(told(hookB, b, 'exclusion.voided')).toEqual([
      expect.objectContaining({ exclusion_id: created.exclusion_id, user_id: null, is_permanent: true }),
    ]);
    const audit = (await auditLog(a)).filter(
      (entry) => entry.details.exclusion_id === created.exclusion_id && entry.action !== 'exclusion.created',
    );
    expect(audit.map((entry) => [entry.action, entry.actor]).reverse()).toEqual([
      ['exclusion.decision_proposed', aliceId],
      ['exclusion.decision_approved', bobId],
      ['exclusion.voided', bobId],
    ]);
    expect(audit.find((entry) => entry.action === 'exclusion.voided')!.details).toMatchObject({
      exclusion_id: created.exclusion_id,
      reason: 'Wrong player',
      voided_by: aliceId,
      confirmed_by: bobId,
    });

    const late = await confirm(created.exclusion_id);
    expect([late.statusCode, late.json()]).toEqual([409, error('exclusion_not_active')]);
  });

  it('answers every error path with its code and changes nothing', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const unknown = 'exc_0193a0f1c2d4e5f6a7b8c9d0e1f2a3b4';
    for (const response of [
      await staffView(unknown),
      await voidRow(unknown, { reason: 'r' }),
      await confirm(unknown),
    ]) {
      expect([response.statusCode, response.json()]).toEqual([404, error('exclusion_not_found')]);
    }

    const email = uniqueEmail();
    const timed = (await exclude(t, tenant, { user_id: userId(), duration: 'duration_7d', email })).json();
    // A body naming who acts is refused: the actor is the signed-in account, never a name in the body.
    for (const body of [
      {},
      { reason: '' },
      { reason: 'Wrong player', actor: 'alice' },
      { reason: 'Wrong player', confirmed_by: 'bob' },
    ]) {
      const response = await voidRow(timed.exclusion_id, body);
      expect([JSON.stringify(body), response.statusCode, response.json()]).toEqual([
        JSON.stringify(body),
        400,
        error('invalid_payload'),
      ]);
    }
    const nothingProposed = await confirm(timed.exclusion_id);
    expect([nothingProposed.statusCode, nothingProposed.json()]).toEqual([
      409,
      error('no_decision_proposed'),
    ]);
    expect((await staffView(timed.exclusion_id)).json()).toMatchObject({
      status: 'active',
      pending_proposal: null,
    });
    expect((await check(t, tenant, { email })).json().exclusion_id).toBe(timed.exclusion_id);

    expect((await voidRow(timed.exclusion_id, { reason: 'Wrong player' })).statusCode).toBe(200);
    const twice = await voidRow(timed.exclusion_id, { reason: 'Wrong player' }, bob());
    expect([twice.statusCode, twice.json()]).toEqual([409, error('exclusion_not_active')]);
    expect((await staffView(timed.exclusion_id)).json()).toMatchObject({
      status: 'voided',
      voided_by: (await alice()).member.staffId,
    });

    const lapsing = (
      await exclude(t, tenant, { user_id: userId(), duration: 'duration_24h', email: uniqueEmail() })
    ).json();
    await t.advance(86_400);
    const expired = await voidRow(lapsing.exclusion_id, { reason: 'Too late' });
    expect([expired.statusCode, expired.json()]).toEqual([409, error('exclusion_not_active')]);
    expect((await staffView(lapsing.exclusion_id)).json()).toMatchObject({
      status: 'expired',
      voided_at: null,
    });
  });

  it('is for the staff only: a tenant key or no token is refused, and the tenant API has no way to void', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const email = uniqueEmail();
    const created = (await exclude(t, tenant, { user_id: userId(), duration: 'duration_30d', email })).json();
    const admin = await t.issueKey(tenant.tenantId, 'admin');
    for (const [method, url, body] of [
      ['GET', `/backoffice/v1/exclusions/${created.exclusion_id}`, undefined],
      ['POST', `/backoffice/v1/exclusions/${created.exclusion_id}/void`, { reason: 'r' }],
      ['POST', `/backoffice/v1/exclusions/${created.exclusion_id}/void/confirm`, undefined],
    ] as const) {
      const none = await t.inject({ method, url, payload: body });
      expect([url, none.statusCode, none.json().error]).toEqual([url, 401, 'missing_credentials']);
      for (const key of [tenant.apiKey, admin]) {
        const withKey = await t.api(key, method, url, body);
        expect([url, withKey.statusCode, withKey.json().error]).toEqual([url, 401, 'invalid_credentials']);
      }
    }
    for (const url of [
      `/v1/exclusions/${created.exclusion_id}/void`,
      `/v1/exclusions/${created.exclusion_id}/void/confirm`,
    ]) {
      const response = await t.api(admin, 'POST', url, { reason: 'r' });
      expect([url, response.statusCode]).toEqual([url, 404]);
    }
    expect((await check(t, tenant, { email })).json().exclusion_id).toBe(created.exclusion_id);
    expect((await staffView(created.exclusion_id)).json().status).toBe('active');
  });
});
