import { randomBytes } from 'node:crypto';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';

export const DAY = 86_400;
export const HOUR = 3_600;

/** One service, one tenant with a webhook receiver, and a fresh player per test: what the limits tests drive. */
export class LimitsHarness extends TenantDriver {
  userId = '';

  static async start(): Promise<LimitsHarness> {
    return new LimitsHarness(...(await TenantDriver.parts()));
  }

  newUser(): string {
    this.userId = `player-${randomBytes(4).toString('hex')}`;
    return this.userId;
  }

  now = () => this.t.platform.clock.now().toISOString();
  /** The service clock's now plus `seconds`, as the API writes timestamps. */
  at = (seconds: number) => new Date(this.t.platform.clock.now().getTime() + seconds * 1000).toISOString();

  setLimit(amount_cents: unknown, limit_type = 'limit_daily', extra: object = {}) {
    return this.t.api(this.tenant.apiKey, 'POST', '/v1/limits', {
      user_id: this.userId,
      limit_type,
      amount_cents,
      currency: 'USD',
      requested_at: this.now(),
      ...extra,
    });
  }

  commit(amount_cents: number, extra: object = {}) {
    return this.t.api(this.tenant.apiKey, 'POST', '/v1/limits/commit', {
      user_id: this.userId,
      transaction_id: `tx-${randomBytes(6).toString('hex')}`,
      amount_cents,
      currency: 'USD',
      committed_at: this.now(),
      ...extra,
    });
  }

  check(amount_cents: number, currency = 'USD') {
    return this.t.api(this.tenant.apiKey, 'POST', '/v1/limits/check', {
      user_id: this.userId,
      amount_cents,
      currency,
    });
  }

  release(transaction_id: string, amount_cents: number, extra: object = {}) {
    return this.t.api(this.tenant.apiKey, 'POST', '/v1/limits/release', {
      user_id: this.userId,
      transaction_id,
      amount_cents,
      currency: 'USD',
      ...extra,
    });
  }

  list() {
    return this.t.api(this.tenant.apiKey, 'GET', `/v1/limits?user_id=${this.userId}`);
  }

  cancel(limitId: string, apiKey = this.tenant.apiKey) {
    return this.t.api(apiKey, 'DELETE', `/v1/limits/${limitId}`);
  }

  /** Runs due work and delivery, then the current player's webhooks of `event`, each verified as a tenant would. */
  async webhooks(event: string) {
    await this.t.deliverWebhooks();
    return this.receiver
      .verified(this.tenant.signingSecret)
      .filter((e) => e.event === event && e.data.user_id === this.userId);
  }

  /** The names of every event of the current player, sorted (delivery order is not part of the contract). */
  async eventNames(): Promise<string[]> {
    await this.t.deliverWebhooks();
    return this.receiver
      .verified(this.tenant.signingSecret)
      .filter((e) => e.data.user_id === this.userId)
      .map((e) => e.event)
      .sort();
  }
}
