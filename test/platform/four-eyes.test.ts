import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { TestService, type TestTenant } from '../helpers/test-service.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

/** A four-eyes decision as staff drive it through the back office, and what the tenant sees of it. */
interface Flow {
  area: 'sanctions' | 'aml';
  /** Opens a case awaiting review through the tenant's API; returns its id. */
  open(t: TestService, tenant: TestTenant, userId: string): Promise<string>;
  propose: Record<string, string>;
  /** Another proposal of the same case, and a decision that would close it at once. */
  second: Record<string, string>;
  clearing: Record<string, string>[];
  awaiting: string;
  decided: string;
  webhooks: string[];
  auditAction: string;
}

const sanctionsHit: Flow['open'] = async (t, tenant, userId) => {
  const response = await t.api(tenant.apiKey, 'POST', '/v1/sanctions/screen', {
    user_id: userId,
    first_name: 'SanctionedSam',
    last_name: 'Smith',
    date_of_birth: '1980-01-01',
    nationality: 'GB',
    email: 'sam@example.com',
  });
  expect(response.json().status).toBe('hit_review_pending');
  return response.json().case_id as string;
};

// A withdrawal of USD 10,000 is held: the case awaits review, and a freeze or an escalation is allowed.
const amlHold: Flow['open'] = async (t, tenant, userId) => {
  const response = await t.api(tenant.apiKey, 'POST', '/v1/aml/screen', {
    user_id: userId,
    withdrawal_id: `wd-${userId}`,
    amount_cents: 1_000_000,
    currency: 'USD',
    payment_method: 'bank_transfer',
    destination_country: 'CA',
  });
  expect(response.json().decision).toBe('hold');
  return response.json().case_id as string;
};

const FLOWS: Record<string, Flow> = {
  'a sanctions confirmation': {
    area: 'sanctions',
    open: sanctionsHit,
    propose: { decision: 'confirmed' },
    second: { decision: 'confirmed' },
    clearing: [{ decision: 'cleared' }],
    awaiting: 'hit_review_pending',
    decided: 'confirmed',
    webhooks: ['sanctions.confirmed', 'sanctions.account_frozen'],
    auditAction: 'sanctions.case_confirmed',
  },
  'an AML freeze': {
    area: 'aml',
    open: amlHold,
    propose: { action: 'freeze' },
    second: { action: 'escalate' },
    clearing: [{ action: 'clear' }, { action: 'confirm_hold' }],
    awaiting: 'under_review',
    decided: 'frozen',
    webhooks: ['aml.account_frozen'],
    auditAction: 'aml.case_freeze',
  },
  'an AML escalation': {
    area: 'aml',
    open: amlHold,
    propose: { action: 'escalate' },
    second: { action: 'freeze' },
    clearing: [{ action: 'clear' }, { action: 'confirm_hold' }],
    awaiting: 'under_review',
    decided: 'escalated',
    webhooks: ['aml.escalated'],
    auditAction: 'aml.case_escalate',
  },
};

// One service for the file; every test opens its case for a fresh tenant.
const suite = useSuite((own) => TestService.start().then(own));
let n = 0;

describe.each(Object.entries(FLOWS))('four eyes on %s', (_, flow) => {
  /** A fresh tenant whose webhooks reach a new receiver, one case of it awaiting review, and the staff's verbs. */
  async function openCase() {
    const t = suite.current;
    const receiver = suite.own(await WebhookReceiver.start());
    const tenant = await t.createTenant({ webhookUrl: receiver.url });
    const userId = `player-${++n}`;
    const caseId = await flow.open(t, tenant, userId);
    const cases = `/${flow.area}/cases/${caseId}`;
    const error = (response: LightMyRequestResponse) => [response.statusCode, response.json().error];
    return {
      caseId,
      error,
      // With the back-office token, the actor is the reviewer the body names (else 'backoffice').
      decide: (body: Record<string, string>, reviewer?: string) =>
        t.backoffice('POST', `${cases}/decision`, { ...body, reviewer, reason: 'matches the listed entity' }),
      // The token approves and rejects as 'backoffice'.
      approve: () => t.backoffice('POST', `${cases}/proposal/approve`),
      reject: (body: object = { reason: 'not enough evidence yet' }) =>
        t.backoffice('POST', `${cases}/proposal/reject`, body),
      staffView: async () => (await t.backoffice('GET', cases)).json(),
      /** The decision's webhooks the tenant has received, after a worker pass. */
      decisionWebhooks: async () => {
        await t.deliverWebhooks();
        return receiver.verified(tenant.signingSecret).filter((e) => flow.webhooks.includes(e.event));
      },
      /** The case's audit rows, oldest first. */
      audit: async () => {
        const log = await t.backoffice('GET', `/tenants/${tenant.tenantId}/audit-log?limit=1000`);
        const entries = log.json().entries as {
          actor: string;
          action: string;
          details: Record<string, unknown>;
        }[];
        return entries.filter((e) => e.details.case_id === caseId).reverse();
      },
    };
  }

  it("a proposal changes nothing until a second member of staff approves it; the decision is the proposer's", async () => {
    const c = await openCase();
    const proposed = await c.decide(flow.propose, 'r.jones');
    expect(proposed.statusCode).toBe(200);
    const pending = {
      case_id: c.caseId,
      action: Object.values(flow.propose)[0],
      reason: 'matches the listed entity',
      proposed_by: 'r.jones',
      status: 'pending',
      decided_by: null,
    };
    expect(proposed.json()).toMatchObject({
      status: flow.awaiting,
      reviewer: null,
      pending_proposal: pending,
    });
    expect((await c.staffView()).status).toBe(flow.awaiting);
    expect(await c.decisionWebhooks()).toEqual([]);
    expect((await c.audit()).map((e) => [e.actor, e.action])).toEqual([
      ['r.jones', `${flow.area}.decision_proposed`],
    ]);

    const approved = await c.approve();
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({
      status: flow.decided,
      reviewer: 'r.jones',
      pending_proposal: null,
    });
    const webhooks = await c.decisionWebhooks();
    // Webhooks carry no order between them (docs/webhooks.md): both must arrive, in either order.
    expect(webhooks.map((e) => e.event).sort()).toEqual([...flow.webhooks].sort());
    for (const e of webhooks) expect(e.data).toMatchObject({ case_id: c.caseId, reviewer: 'r.jones' });
    expect(await c.audit()).toEqual([
      expect.objectContaining({ actor: 'r.jones', action: `${flow.area}.decision_proposed` }),
      expect.objectContaining({
        actor: 'backoffice',
        action: `${flow.area}.decision_approved`,
        details: expect.objectContaining({ proposed_by: 'r.jones' }),
      }),
      expect.objectContaining({
        actor: 'r.jones',
        action: flow.auditAction,
        details: expect.objectContaining({ reason: 'matches the listed entity', approved_by: 'backoffice' }),
      }),
    ]);
  });

  it('the proposer cannot approve or reject their own proposal (403 second_approver_required)', async () => {
    const c = await openCase();
    // A decision that names no reviewer is the token's own ('backoffice'): the token is then the proposer.
    expect((await c.decide(flow.propose)).json().pending_proposal).toMatchObject({
      proposed_by: 'backoffice',
    });
    expect(c.error(await c.approve())).toEqual([403, 'second_approver_required']);
    expect(c.error(await c.reject())).toEqual([403, 'second_approver_required']);
    expect((await c.staffView()).status).toBe(flow.awaiting);
    expect(await c.decisionWebhooks()).toEqual([]);
    expect((await c.audit()).map((e) => e.action)).toEqual([`${flow.area}.decision_proposed`]);
  });

  it('a rejection leaves the case open and sends nothing; a new proposal can then be made', async () => {
    const c = await openCase();
    await c.decide(flow.propose, 'r.jones');
    expect((await c.reject({})).statusCode).toBe(400);
    const rejected = await c.reject({ reason: 'the date of birth differs' });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toMatchObject({ status: flow.awaiting, reviewer: null, pending_proposal: null });
    expect(await c.decisionWebhooks()).toEqual([]);
    expect((await c.audit()).at(-1)).toMatchObject({
      actor: 'backoffice',
      action: `${flow.area}.decision_rejected`,
      details: { proposed_by: 'r.jones', reason: 'the date of birth differs' },
    });
    expect(c.error(await c.approve())).toEqual([409, 'no_decision_proposed']);

    const again = await c.decide(flow.propose, 'a.khan');
    expect(again.json().pending_proposal).toMatchObject({ proposed_by: 'a.khan', status: 'pending' });
    expect((await c.approve()).json()).toMatchObject({ status: flow.decided, reviewer: 'a.khan' });
    expect((await c.decisionWebhooks()).map((e) => e.event).sort()).toEqual([...flow.webhooks].sort());
  });

  it('refuses a second proposal or a clearing while one is pending (409), and an approval of nothing', async () => {
    const c = await openCase();
    expect(c.error(await c.approve())).toEqual([409, 'no_decision_proposed']);
    expect(c.error(await c.reject())).toEqual([409, 'no_decision_proposed']);
    await c.decide(flow.propose, 'r.jones');
    expect(c.error(await c.decide(flow.second, 'a.khan'))).toEqual([409, 'decision_already_proposed']);
    for (const clearing of flow.clearing)
      expect(c.error(await c.decide(clearing, 'a.khan'))).toEqual([409, 'decision_already_proposed']);
    expect((await c.staffView()).status).toBe(flow.awaiting);
    expect(await c.decisionWebhooks()).toEqual([]);
    expect((await c.audit()).map((e) => e.action)).toEqual([`${flow.area}.decision_proposed`]);
  });
});
