import type { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import { newId } from '../../platform/ids.js';
import type {
  FinancialCheckLevel,
  FinancialWindow,
  InteractionKind,
  InteractionOutcome,
  MarkerCode,
} from './safer-gambling.markers.js';
import { recordMarkerTrips } from './service/standing.js';

/**
 * Seeds a tenant's safer-gambling records for the staff's views and the monthly report, while the evaluation and the
 * interactions API are built beside them: trips through recordMarkerTrips (the standing, its webhooks and its jobs
 * follow as in service), interactions, contests and financial checks as rows. Times are the service clock's.
 */
export class SaferGamblingSeed {
  constructor(private readonly d: TenantDriver) {}

  private get platform() {
    return this.d.t.platform;
  }

  private get tenantId() {
    return this.d.tenant.tenantId;
  }

  /** One trip of a marker, recorded now as an evaluation would record it. */
  async trip(
    userId: string,
    code: MarkerCode,
    measured: { value: number; threshold: number },
  ): Promise<void> {
    const now = this.platform.clock.now();
    await this.platform.db.transaction().execute((tx) =>
      recordMarkerTrips(
        tx,
        this.platform,
        this.tenantId,
        [
          {
            code,
            userId,
            observedAt: new Date(now.getTime() - 60_000),
            measuredValue: measured.value,
            threshold: measured.threshold,
            details: {},
            source: newId('aml_event'),
          },
        ],
        now,
      ),
    );
  }

  /**
   * An interaction the operator recorded now. settles: it settled the interaction owed (as the interactions API
   * does: the owed interaction is no longer due), recording the due time it settled.
   */
  async interaction(
    userId: string,
    row: { kind: InteractionKind; outcome: InteractionOutcome; occurred_at?: Date; settles?: boolean },
  ): Promise<string> {
    const now = this.platform.clock.now();
    const interactionId = newId('interaction');
    await this.platform.db.transaction().execute(async (tx) => {
      const player = await tx
        .selectFrom('sg_players')
        .selectAll()
        .where('tenant_id', '=', this.tenantId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      const settledDueAt = row.settles ? (player?.interaction_due_at ?? null) : null;
      await tx
        .insertInto('sg_interactions')
        .values({
          tenant_id: this.tenantId,
          interaction_id: interactionId,
          user_id: userId,
          kind: row.kind,
          outcome: row.outcome,
          occurred_at: row.occurred_at ?? now,
          notes: null,
          recorded_at: now,
          reviewed_markers: JSON.stringify([]),
          settled_due_at: settledDueAt,
          request_hash: interactionId,
        })
        .execute();
      if (player && (settledDueAt || row.outcome === 'contested')) {
        await tx
          .updateTable('sg_players')
          .set({
            ...(settledDueAt ? { interaction_due_at: null, interaction_overdue_at: null } : {}),
            ...(row.outcome === 'contested'
              ? { contested_at: now, contested_interaction_id: interactionId }
              : {}),
            updated_at: now,
          })
          .where('tenant_id', '=', this.tenantId)
          .where('user_id', '=', userId)
          .execute();
      }
    });
    return interactionId;
  }

  /** A financial check called for now. */
  async financialCheck(
    userId: string,
    check: {
      level: FinancialCheckLevel;
      window: FinancialWindow;
      net_deposits_cents: number;
      threshold_cents: number;
    },
  ): Promise<string> {
    const now = this.platform.clock.now();
    const checkId = newId('financial_check');
    await this.platform.db
      .insertInto('sg_financial_checks')
      .values({
        check_id: checkId,
        tenant_id: this.tenantId,
        user_id: userId,
        level: check.level,
        window_name: check.window,
        net_deposits_cents: check.net_deposits_cents,
        currency: 'GBP',
        threshold_cents: check.threshold_cents,
        observed_at: now,
        called_at: now,
        source: newId('aml_event'),
      })
      .execute();
    return checkId;
  }
}
