import { afterAll, beforeAll, beforeEach } from 'vitest';
import { TestService, type TestTenant } from '../../../test/helpers/test-service.js';
import { WebhookReceiver } from '../../../test/helpers/webhook-receiver.js';

export const DAY = 86_400;

/**
 * One service, one tenant with a webhook receiver and an admin key, and a fresh player per test (`userId`; a test
 * may set its own, for the sandbox triggers). Call inside a describe block.
 */
export function kycTestBed() {
  let user = 0;
  const state: {
    t: TestService;
    receiver: WebhookReceiver;
    tenant: TestTenant;
    adminKey: string;
    userId: string;
  } = {
    t: undefined as unknown as TestService,
    receiver: undefined as unknown as WebhookReceiver,
    tenant: undefined as unknown as TestTenant,
    adminKey: '',
    userId: '',
  };
  const bed = Object.assign(state, {
    start: (amount: number, id = state.userId, withdrawal_id = `wd-${id}`) =>
      state.t.api(state.tenant.apiKey, 'POST', '/v1/kyc/start', {
        user_id: id,
        email: 'player@example.com',
        phone: '+15555550100',
        withdrawal_amount_cents: amount,
        currency: 'USD',
        withdrawal_id,
      }),
    /** Reports a cleared withdrawal (USD), which advances the user's lifetime total. */
    completed: (amount_cents: number, id = state.userId, withdrawal_id = `done-${Math.random()}`) =>
      state.t.api(state.tenant.apiKey, 'POST', '/v1/kyc/withdrawal-completed', {
        user_id: id,
        withdrawal_id,
        amount_cents,
        currency: 'USD',
        completed_at: state.t.platform.clock.now().toISOString(),
      }),
    status: async (checkId: string) =>
      (await state.t.api(state.tenant.apiKey, 'GET', `/v1/kyc/status?kyc_check_id=${checkId}`)).json(),
    tier: async (id = state.userId) =>
      (await state.t.api(state.tenant.apiKey, 'GET', `/v1/kyc/tier?user_id=${id}`)).json(),
    vendor: (token: string, step: 'begin' | 'submit') =>
      state.t.inject({ method: 'POST', url: `/v1/kyc/sandbox-vendor/${token}/${step}` }),
    review: (kyc_check_id: string, decision: string, key = state.adminKey) =>
      state.t.api(key, 'POST', '/v1/kyc/manual-review', {
        kyc_check_id,
        decision,
        reason: 'documents checked by hand',
      }),
    /** Delivered webhooks of this user, each verified with standardwebhooks as a tenant would. */
    webhooks: async (event: string, id = state.userId) => {
      await state.t.deliverWebhooks();
      return state.receiver
        .verified(state.tenant.signingSecret)
        .filter((e) => e.event === event && e.data.user_id === id);
    },
  });

  beforeAll(async () => {
    bed.t = await TestService.start();
    bed.receiver = await WebhookReceiver.start();
    bed.tenant = await bed.t.createTenant({ webhookUrl: bed.receiver.url });
    bed.adminKey = await bed.t.issueKey(bed.tenant.tenantId, 'admin');
  });
  afterAll(async () => {
    await bed.t.close();
    await bed.receiver.close();
  });
  beforeEach(() => {
    bed.userId = `player-${++user}`;
  });
  return bed;
}
