import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  asStaff,
  createStaffMember,
  signInAs,
  staffOf,
  staffTeam,
  type StaffSession,
} from '../helpers/staff-driver.js';
import { useSuite } from '../helpers/suite.js';
import { TestService, type TestTenant } from '../helpers/test-service.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * Four eyes, for every kind of decision that needs it: proposed by one signed-in member of staff, approved or
 * rejected by another, never by the back-office token, and never by the proposer's own account.
 */
interface Kind {
  /** Opens what the decision is about (a case, a register row, an account to be); returns its path's subject. */
  open(t: TestService, tenant: TestTenant, n: number): Promise<{ id: string; base: string }>;
  /** The role that proposes, and the role that approves. */
  proposer: 'reviewer' | 'admin';
  approver: 'supervisor' | 'admin';
  /** The proposal's request: method, path under /backoffice/v1, body. */
  propose(id: string, n: number): { url: string; body: object };
  approve: (id: string) => string;
  reject: (id: string) => string;
  /** What the subject looks like to staff while it awaits a second person, and once decided. */
  awaiting: object;
  decided: object;
  /** The webhooks its approval sends to the tenant, if any. */
  webhooks: string[];
}

const sanctionsHit: Kind['open'] = async (t, tenant, n) => {
  const response = await t.api(tenant.apiKey, 'POST', '/v1/sanctions/screen', {
    user_id: `player-${n}`,
    first_name: 'SanctionedSam',
    last_name: 'Smith',
    date_of_birth: '1980-01-01',
    nationality: 'GB',
    email: 'sam@example.com',
  });
  expect(response.json().status).toBe('hit_review_pending');
  return { id: response.json().case_id as string, base: '/sanctions/cases' };
};

// A withdrawal of USD 10,000 is held: the case awaits review, and a freeze or an escalation is allowed.
const amlHold: Kind['open'] = async (t, tenant, n) => {
  const response = await t.api(tenant.apiKey, 'POST', '/v1/aml/screen', {
    user_id: `player-${n}`,
    withdrawal_id: `wd-${n}`,
    amount_cents: 1_000_000,
    currency: 'USD',
    payment_method: 'bank_transfer',
    destination_country: 'CA',
  });
  expect(response.json().decision).toBe('hold');
  return { id: response.json().case_id as string, base: '/aml/cases' };
};

const caseKind = (open: Kind['open'], body: object, awaiting: string, decided: string, webhooks: string[]) =>
  ({
    open,
    proposer: 'reviewer',
    approver: 'supervisor',
    propose: (id: string) => ({ url: `${base(open)}/${id}/decision`, body: { ...body, reason: 'matches' } }),
    approve: (id: string) => `${base(open)}/${id}/proposal/approve`,
    reject: (id: string) => `${base(open)}/${id}/proposal/reject`,
    awaiting: { status: awaiting },
    decided: { status: decided },
    webhooks,
  }) satisfies Kind;
const base = (open: Kind['open']) => (open === sanctionsHit ? '/sanctions/cases' : '/aml/cases');

const KINDS: Record<string, Kind> = {
  'a sanctions confirmation': caseKind(
    sanctionsHit,
    { decision: 'confirmed' },
    'hit_review_pending',
    'confirmed',
    ['sanctions.confirmed', 'sanctions.account_frozen'],
  ),
  'an AML freeze': caseKind(amlHold, { action: 'freeze' }, 'under_review', 'frozen', ['aml.account_frozen']),
  'an AML escalation': caseKind(amlHold, { action: 'escalate' }, 'under_review', 'escalated', [
    'aml.escalated',
  ]),
  "a permanent exclusion's void": {
    open: async (t, tenant, n) => {
      const response = await t.api(tenant.apiKey, 'POST', '/v1/exclusions', {
        user_id: `player-${n}`,
        email: `player-${n}@example.com`,
        duration: 'duration_permanent',
        reason: 'self_initiated',
        initiated_at: t.platform.clock.now().toISOString(),
      });
      expect(response.statusCode).toBe(201);
      return { id: response.json().exclusion_id as string, base: '/exclusions' };
    },
    proposer: 'reviewer',
    approver: 'supervisor',
    propose: (id) => ({ url: `/exclusions/${id}/void`, body: { reason: 'registered in error' } }),
    approve: (id) => `/exclusions/${id}/void/confirm`,
    reject: (id) => `/exclusions/${id}/void/reject`,
    awaiting: { status: 'active' },
    decided: { status: 'voided' },
    webhooks: ['exclusion.voided'],
  },
  'a supervisor account': {
    open: () => Promise.resolve({ id: '', base: '/staff' }),
    proposer: 'admin',
    approver: 'admin',
    propose: (_, n) => ({
      url: '/staff',
      body: { email: `new.supervisor.${n}@compliance.example`, display_name: `Sup ${n}`, role: 'supervisor' },
    }),
    approve: (id) => `/staff/${id}/proposal/approve`,
    reject: (id) => `/staff/${id}/proposal/reject`,
    awaiting: { status: 'proposed' },
    decided: { status: 'invited' },
    webhooks: [],
  },
};

const suite = useSuite((own) => TestService.start().then(own));
let n = 0;

describe.each(Object.entries(KINDS))('four eyes on %s', (_, kind) => {
  /** A fresh tenant with a webhook receiver, the subject opened, and the two people who act on it. */
  async function open() {
    const t = suite.current;
    const receiver = suite.own(await WebhookReceiver.start());
    const tenant = await t.createTenant({ webhookUrl: receiver.url });
    const number = ++n;
    const opened = await kind.open(t, tenant, number);
    const team = await staffTeam(t);
    const proposer = kind.proposer === 'admin' ? team.admins[0] : await staffOf(t, kind.proposer);
    const approver = kind.approver === 'admin' ? team.admins[1] : await staffOf(t, kind.approver);
    let id = opened.id;
    const error = (response: LightMyRequestResponse) => [response.statusCode, response.json().error];
    return {
      t,
      proposer,
      approver,
      error,
      get id() {
        return id;
      },
      propose: async (session: StaffSession | 'token') => {
        const { url, body } = kind.propose(id, number);
        const response =
          session === 'token'
            ? await t.backoffice('POST', url, body)
            : await asStaff(t, session, 'POST', url, body);
        // An account proposed is its own subject: the proposal's subject id is the new staff id.
        if (!id && response.statusCode < 300) id = response.json().staff_id as string;
        return response;
      },
      approve: (session: StaffSession | 'token') =>
        session === 'token'
          ? t.backoffice('POST', kind.approve(id))
          : asStaff(t, session, 'POST', kind.approve(id)),
      reject: (session: StaffSession | 'token', body: object = { reason: 'not enough evidence yet' }) =>
        session === 'token'
          ? t.backoffice('POST', kind.reject(id), body)
          : asStaff(t, session, 'POST', kind.reject(id), body),
      /** The subject as staff see it. */
      view: async () => {
        if (kind.open === KINDS['a supervisor account']!.open) {
          const { staff } = (await t.backoffice('GET', '/staff')).json<{ staff: { staff_id: string }[] }>();
          return staff.find((s) => s.staff_id === id);
        }
        return (await t.backoffice('GET', `${opened.base}/${id}`)).json();
      },
      webhooks: async () => {
        await t.deliverWebhooks();
        return receiver.verified(tenant.signingSecret).filter((e) => kind.webhooks.includes(e.event));
      },
    };
  }

  it('the back-office token can neither propose, approve nor reject (403 staff_session_required)', async () => {
    const s = await open();
    // Past the bootstrap of two admins, the token creates no account either.
    expect(s.error(await s.propose('token'))).toEqual([403, 'staff_session_required']);
    expect((await s.propose(s.proposer)).statusCode).toBeLessThan(300);
    expect(s.error(await s.approve('token'))).toEqual([403, 'staff_session_required']);
    expect(s.error(await s.reject('token'))).toEqual([403, 'staff_session_required']);
    expect(await s.view()).toMatchObject(kind.awaiting);
    expect(await s.webhooks()).toEqual([]);
  });

  it('one person with two sessions of one account cannot approve or reject their own proposal', async () => {
    const s = await open();
    // The approver's own account proposes, then tries to approve from a second session of it.
    const second = await signInAs(s.t, s.approver.member);
    expect((await s.propose(s.approver)).statusCode).toBeLessThan(300);
    expect(s.error(await s.approve(second))).toEqual([403, 'second_approver_required']);
    expect(s.error(await s.reject(second))).toEqual([403, 'second_approver_required']);
    expect(s.error(await s.approve(s.approver))).toEqual([403, 'second_approver_required']);
    expect(await s.view()).toMatchObject(kind.awaiting);
    expect(await s.webhooks()).toEqual([]);
  });

  it('a proposal changes nothing until a second person approves it; then it takes effect once', async () => {
    const s = await open();
    const proposed = await s.propose(s.proposer);
    expect(proposed.json().pending_proposal).toMatchObject({
      subject_id: s.id,
      proposed_by: s.proposer.member.staffId,
      status: 'pending',
    });
    expect(await s.view()).toMatchObject(kind.awaiting);
    expect(await s.webhooks()).toEqual([]);
    const approved = await s.approve(s.approver);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ ...kind.decided, pending_proposal: null });
    expect((await s.webhooks()).map((e) => e.event).sort()).toEqual([...kind.webhooks].sort());
    // Decided: nothing awaits approval any more, and nothing is sent twice.
    expect((await s.approve(s.approver)).statusCode).toBe(409);
    expect(await s.webhooks()).toHaveLength(kind.webhooks.length);
  });

  it('a rejection leaves the subject as it was; a second proposal waits for the first to be decided', async () => {
    const s = await open();
    if (s.id) expect(s.error(await s.approve(s.approver))).toEqual([409, 'no_decision_proposed']);
    await s.propose(s.proposer);
    if (kind.proposer !== 'admin') {
      expect(s.error(await s.propose(s.approver))).toEqual([409, 'decision_already_proposed']);
    }
    expect((await s.reject(s.approver, {})).statusCode).toBe(400);
    const rejected = await s.reject(s.approver, { reason: 'the date of birth differs' });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().pending_proposal).toBeNull();
    expect(await s.webhooks()).toEqual([]);
    if (kind.proposer === 'admin') {
      // A rejected account is removed: its address can be proposed again.
      expect(rejected.json().status).toBe('removed');
      expect(await s.view()).toBeUndefined();
      return;
    }
    expect(await s.view()).toMatchObject(kind.awaiting);
    expect((await s.propose(s.proposer)).json().pending_proposal).toMatchObject({ status: 'pending' });
  });
});

describe('four eyes names people, not what a body says', () => {
  it('the case decision and its webhook are the proposer’s: staff see staff ids, the tenant an opaque reference', async () => {
    const t = suite.current;
    const receiver = suite.own(await WebhookReceiver.start());
    const tenant = await t.createTenant({ webhookUrl: receiver.url });
    const { id } = await sanctionsHit(t, tenant, ++n);
    const reviewer = await staffOf(t, 'reviewer');
    const supervisor = await staffOf(t, 'supervisor');
    await asStaff(t, reviewer, 'POST', `/sanctions/cases/${id}/decision`, {
      decision: 'confirmed',
      reason: 'Typed by the reviewer: the passport matches the listed entity',
    });
    const approved = await asStaff(t, supervisor, 'POST', `/sanctions/cases/${id}/proposal/approve`);
    expect(approved.json()).toMatchObject({ status: 'confirmed', reviewer: reviewer.member.staffId });
    await t.deliverWebhooks();
    const events = receiver.verified(tenant.signingSecret).filter((e) => e.event !== 'sanctions.hit');
    expect(events.map((e) => e.data.reviewer)).toEqual([
      reviewer.member.reviewerRef,
      reviewer.member.reviewerRef,
    ]);
    const raw = JSON.stringify(receiver.received.map((r) => r.body));
    for (const secret of ['Typed by the reviewer', reviewer.member.staffId, reviewer.member.email])
      expect(raw).not.toContain(secret);
    const log = (await t.backoffice('GET', `/tenants/${tenant.tenantId}/audit-log?limit=1000`)).json();
    const trail = (log.entries as { actor: string; action: string; details: { case_id?: string } }[])
      .filter((e) => e.details.case_id === id)
      .reverse()
      .map((e) => [e.actor, e.action]);
    expect(trail).toEqual([
      [reviewer.member.staffId, 'sanctions.decision_proposed'],
      [supervisor.member.staffId, 'sanctions.decision_approved'],
      [reviewer.member.staffId, 'sanctions.case_confirmed'],
    ]);
  });

  it('an approver role needs a second admin; the first admin cannot approve the account they proposed', async () => {
    const t = suite.current;
    const [first, second] = (await staffTeam(t)).admins;
    for (const role of ['admin', 'supervisor'] as const) {
      const email = `${role}.proposed.${++n}@compliance.example`;
      const created = await asStaff(t, first, 'POST', '/staff', { email, display_name: 'New', role });
      expect(created.statusCode).toBe(202);
      expect(created.json()).toMatchObject({ status: 'proposed', approved_by: null });
      const staffId = created.json().staff_id as string;
      // No link until it is approved: nobody can set it up.
      const mail = await t.db
        .selectFrom('mail_outbox')
        .select('mail_id')
        .where('to_address', '=', email)
        .execute();
      expect(mail).toEqual([]);
      expect((await asStaff(t, first, 'POST', `/staff/${staffId}/proposal/approve`)).statusCode).toBe(403);
      const approved = await asStaff(t, second, 'POST', `/staff/${staffId}/proposal/approve`);
      expect(approved.json()).toMatchObject({
        status: 'invited',
        created_by: first.member.staffId,
        approved_by: second.member.staffId,
      });
    }
    // A reviewer needs no second admin.
    const reviewer = await createStaffMember(t, 'reviewer');
    const { staff } = (await asStaff(t, first, 'GET', '/staff')).json();
    expect(staff.find((s: { staff_id: string }) => s.staff_id === reviewer.staffId)).toMatchObject({
      created_by: first.member.staffId,
      approved_by: null,
    });
  });
});
