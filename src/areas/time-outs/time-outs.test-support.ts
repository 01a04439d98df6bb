import { TenantDriver } from '../../../test/helpers/tenant-driver.js';

/** Drives the time-outs API as one tenant would, for the current player (a fresh one per test: newUser). */
export class TimeOutsDriver extends TenantDriver {
  takeTimeOut(duration: unknown, extra: object = {}) {
    return this.api('POST', '/v1/time-outs', {
      user_id: this.userId,
      duration,
      reason: 'player asked for a break',
      initiated_at: this.now(),
      ...extra,
    });
  }

  list(userId = this.userId) {
    return this.api('GET', `/v1/time-outs?user_id=${encodeURIComponent(userId)}`);
  }

  /** The current player's time-outs as the list answers them. */
  async timeOuts(): Promise<Record<string, unknown>[]> {
    const response = await this.list();
    if (response.statusCode !== 200) throw new Error(`list failed: ${response.body}`);
    return response.json<{ time_outs: Record<string, unknown>[] }>().time_outs;
  }

  /** The data of every timeout.* webhook of the current player, as [event, time_out_id, ends_at], in time order (at one
   * instant, an end before a start). */
  async timeOutEvents(): Promise<[string, unknown, unknown][]> {
    await this.t.deliverWebhooks();
    return this.received(undefined, this.userId)
      .filter((e) => e.event.startsWith('timeout.'))
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.event.localeCompare(b.event))
      .map((e) => [e.event, e.data.time_out_id, e.data.ends_at]);
  }
}
