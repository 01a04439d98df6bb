import { useSuite, type Own } from '../../../test/helpers/suite.js';
import { startServiceWithReceiver } from '../../../test/helpers/tenant-driver.js';

export const DAY = 86_400;

/** One service, and one tenant of it with a webhook receiver and an admin key. */
export async function startKycTenant(own: Own) {
  const started = await startServiceWithReceiver(own);
  return { ...started, adminKey: await started.t.issueKey(started.tenant.tenantId, 'admin') };
}

/**
 * The service and tenant of startKycTenant for a suite, and a fresh player per test (`userId`; a test may set its
 * own, for the sandbox triggers). Call inside a describe block.
 */
export function kycTestBed() {
  let user = 0;
  const suite = useSuite(startKycTenant, {
    eachTest: () => {
      state.userId = `player-${++user}`;
    },
  });
  const state = {
    get t() {
      return suite.current.t;
    },
    get receiver() {
      return suite.current.receiver;
    },
    get tenant() {
      return suite.current.tenant;
    },
    get adminKey() {
      return suite.current.adminKey;
    },
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

  return bed;
}
