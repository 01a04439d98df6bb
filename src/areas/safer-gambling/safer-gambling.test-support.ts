import type { LightMyRequestResponse } from 'fastify';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import { MARKERS, type MarkerCode } from './safer-gambling.markers.js';
import { recordMarkerTrips } from './service/standing.js';

/**
 * Drives the safer-gambling API as one tenant would, for the current player (a fresh one per test: newUser). A
 * player is put at a level by tripping markers directly (tripMarker), as an evaluation records them; what follows
 * is asserted through HTTP and the webhooks.
 */
export class SaferGamblingDriver extends TenantDriver {
  /**
   * Records a trip of a marker for the player now, in a transaction on the service's database, as the evaluation
   * does: measured against the marker's first threshold (its default).
   */
  async tripMarker(code: MarkerCode, measuredValue: number, userId = this.userId): Promise<void> {
    const { db, clock, log } = this.t.platform;
    const [name, threshold] = Object.entries(MARKERS[code].thresholds)[0]!;
    await db.transaction().execute((tx) =>
      recordMarkerTrips(
        tx,
        { log },
        this.tenant.tenantId,
        [
          {
            code,
            userId,
            observedAt: clock.now(),
            measuredValue,
            threshold: threshold.value,
            details: { threshold_name: name },
            source: `test-${code}`,
          },
        ],
        clock.now(),
      ),
    );
  }

  postInteraction(body: object, userId = this.userId) {
    return this.api('POST', `/v1/players/${encodeURIComponent(userId)}/interactions`, {
      kind: 'call',
      occurred_at: this.now(),
      ...body,
    });
  }

  /** Records an interaction of this outcome, expected 201; answers the stored interaction. */
  async interact(outcome: string, extra: object = {}): Promise<Record<string, unknown>> {
    return this.ok(this.postInteraction({ outcome, ...extra }), 201);
  }

  /** The current player's safer-gambling standing, expected 200. */
  async standing(userId = this.userId): Promise<Record<string, unknown>> {
    return this.ok(this.api('GET', `/v1/players/${encodeURIComponent(userId)}/safer-gambling`), 200);
  }

  /** The current player's status (GET /v1/players/{user_id}/status), expected 200. */
  async status(): Promise<Record<string, unknown>> {
    return this.ok(this.api('GET', `/v1/players/${encodeURIComponent(this.userId)}/status`), 200);
  }

  settings(body?: object, tenantId = this.tenant.tenantId) {
    const url = `/tenants/${tenantId}/safer-gambling`;
    return body ? this.t.backoffice('PUT', url, body) : this.t.backoffice('GET', url);
  }

  /** The data of this tenant's webhooks of an event for the current player, after one worker pass. */
  async events(event: string): Promise<Record<string, unknown>[]> {
    return (await this.webhooks(event)).map((e) => e.data);
  }

  private async ok(request: Promise<LightMyRequestResponse>, status: number) {
    const response = await request;
    if (response.statusCode !== status)
      throw new Error(`expected ${status}: ${response.statusCode} ${response.body}`);
    return response.json<Record<string, unknown>>();
  }
}
