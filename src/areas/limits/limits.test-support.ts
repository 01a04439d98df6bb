import { randomBytes } from 'node:crypto';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';

/** Drives the limits API as one tenant would, for the current player (a fresh one per test: newUser). */
export class LimitsDriver extends TenantDriver {
  setLimit(amount_cents: unknown, limit_type = 'limit_daily', extra: object = {}) {
    return this.api('POST', '/v1/limits', {
      user_id: this.userId,
      limit_type,
      amount_cents,
      currency: 'USD',
      requested_at: this.now(),
      ...extra,
    });
  }

  commit(amount_cents: number, extra: object = {}) {
    return this.api('POST', '/v1/limits/commit', {
      user_id: this.userId,
      transaction_id: `tx-${randomBytes(6).toString('hex')}`,
      amount_cents,
      currency: 'USD',
      committed_at: this.now(),
      ...extra,
    });
  }

  check(amount_cents: number, currency = 'USD') {
    return this.api('POST', '/v1/limits/check', {
      user_id: this.userId,
      amount_cents,
      currency,
    });
  }

  release(transaction_id: string, amount_cents: number, extra: object = {}) {
    return this.api('POST', '/v1/limits/release', {
      user_id: this.userId,
      transaction_id,
      amount_cents,
      currency: 'USD',
      ...extra,
    });
  }

  list() {
    return this.api('GET', `/v1/limits?user_id=${this.userId}`);
  }

  cancel(limitId: string, apiKey = this.tenant.apiKey) {
    return this.t.api(apiKey, 'DELETE', `/v1/limits/${limitId}`);
  }

  /** The names of every event of the current player, sorted (delivery order is not part of the contract). */
  async eventNames(): Promise<string[]> {
    await this.t.deliverWebhooks();
    return this.received(undefined, this.userId)
      .map((e) => e.event)
      .sort();
  }
}
