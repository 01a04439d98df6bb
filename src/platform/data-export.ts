import { audit } from './audit.js';
import type { Platform } from './context.js';
import { BASES, DATA_LIFECYCLE, type TableLifecycle } from './data-lifecycle.js';
import { EXPORT_ROWS_PER_TABLE, rowsOfPlayer } from './data-export.store.js';
import type { ExportedTable, PlayerDataExport } from './data-export.schemas.js';
import { AppError } from './errors.js';
import { forTenant, withTransaction, type ServiceContext } from './service-context.js';
import { findTenant } from './tenants.store.js';

const kept = (t: TableLifecycle) =>
  t.keep === 'in_use'
    ? 'while the service uses it'
    : `${'years' in t.keep ? `${t.keep.years} years` : `${t.keep.days} days`} from ${t.from.replaceAll('_', ' ')}, then ${t.end === 'delete' ? 'deleted' : 'pseudonymised'}`;

/**
 * Everything held about one (tenant, user_id), as one JSON document with a short summary: each table the lifecycle
 * links to a player (DATA_LIFECYCLE's `player`), read the same way. Four-eyes-free but audited
 * (player.data_exported, with the tables exported and no data). A player of whom nothing is held is 404
 * player_not_found, in the spec's error shape.
 */
export async function exportPlayerData(
  platform: Pick<Platform, 'db' | 'clock'>,
  ctx: ServiceContext,
  tenantId: string,
  userId: string,
): Promise<PlayerDataExport> {
  if (!(await findTenant(platform.db, tenantId)))
    throw new AppError('tenant_not_found', `No tenant ${tenantId}`);
  const linked = Object.entries(DATA_LIFECYCLE).filter(([, t]) => t.player !== undefined);
  return withTransaction(forTenant(ctx, tenantId), async (tx, ctx) => {
    const data: ExportedTable[] = [];
    for (const [table, t] of linked) {
      const rows = await rowsOfPlayer(tx, table, t.player!, tenantId, userId);
      if (rows.length === 0) continue;
      data.push({
        table,
        holds: t.holds,
        source: t.source,
        basis: BASES[t.basis],
        kept: kept(t),
        then: t.end,
        rows,
        truncated: rows.length === EXPORT_ROWS_PER_TABLE,
      });
    }
    if (data.length === 0)
      throw new AppError('player_not_found', `Nothing is held about user ${userId} of tenant ${tenantId}`);
    await audit(tx, ctx, 'player.data_exported', {
      user_id: userId,
      tables: data.map((d) => d.table),
    });
    const generatedAt = ctx.clock.now().toISOString();
    return {
      tenant_id: tenantId,
      user_id: userId,
      generated_at: generatedAt,
      summary: [
        `Data held on ${generatedAt} about user ${userId} of tenant ${tenantId}: ${data.length} kinds, ${data.reduce((n, d) => n + d.rows.length, 0)} records.`,
        ...data.map(
          (d) => `${d.holds}: ${d.rows.length} record${d.rows.length === 1 ? '' : 's'}, kept ${d.kept}.`,
        ),
      ],
      data,
      not_tied_to_a_player: Object.entries(DATA_LIFECYCLE)
        .filter(([, t]) => t.player === undefined && t.personal.some((p) => p !== 'staff'))
        .map(([table, t]) => ({ table, holds: t.holds, personal: [...t.personal] })),
    };
  });
}
