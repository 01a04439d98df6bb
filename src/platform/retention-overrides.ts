import { audit } from './audit.js';
import type { ServiceContext } from './context.js';
import { DATA_LIFECYCLE, DROPPED_WHOLE, type Keep } from './data-lifecycle.js';
import { AppError } from './errors.js';
import {
  boundsOf,
  defaultKeep,
  keepFor,
  lifecycleOf,
  overridable,
  overrideProblem,
  RETAINED_TABLES,
  type RetainedTable,
} from './retention.rules.js';
import type { RetentionOverridesRequest, RetentionSettings } from './retention.schemas.js';
import {
  keepOfRow,
  overridesOf,
  removeOverride,
  saveOverride,
  tenantOwnedTables,
} from './retention.store.js';
import { forTenant, withTransaction } from './service-context.js';
import { findTenant } from './tenants.store.js';

async function assertTenant(ctx: ServiceContext, tenantId: string): Promise<void> {
  if (!(await findTenant(ctx.db, tenantId))) throw new AppError('tenant_not_found', `No tenant ${tenantId}`);
}

/** Every table kept for a time, with its default, the tenant's override, what is in force and the bounds. */
export async function retentionSettings(ctx: ServiceContext, tenantId: string): Promise<RetentionSettings> {
  await assertTenant(ctx, tenantId);
  const owned = await tenantOwnedTables(ctx.db);
  const overrides = new Map(
    (await overridesOf(ctx.db, tenantId)).map((row) => [row.table_name as RetainedTable, keepOfRow(row)]),
  );
  const tables = [...RETAINED_TABLES, ...DROPPED_WHOLE].map((table) => {
    const lifecycle = lifecycleOf(table);
    const canOverride = overridable(table, owned.has(table));
    const bounds = canOverride ? boundsOf(table) : undefined;
    return {
      table,
      holds: lifecycle.holds,
      basis: lifecycle.basis,
      from: lifecycle.from,
      end: lifecycle.end,
      default: defaultKeep(table),
      override: overrides.get(table) ?? null,
      in_force: DROPPED_WHOLE.includes(table) ? defaultKeep(table) : keepFor(table, overrides),
      overridable: canOverride,
      shortest: bounds?.shortest ?? null,
      longest: bounds?.longest ?? null,
      bounds_reason: bounds?.why ?? null,
      applied_by: lifecycle.appliedBy ?? 'the partitions',
    };
  });
  return { tenant_id: tenantId, tables };
}

/**
 * Sets or clears (null) a tenant's period for the tables given; the others keep theirs. Refused whole, and nothing
 * stored or audited, when a table is not the tenant's to change (400 retention_not_overridable) or a period is
 * beyond its bounds (400 retention_out_of_bounds), each problem named.
 */
export async function setRetentionOverrides(
  ctx: ServiceContext,
  tenantId: string,
  input: RetentionOverridesRequest,
): Promise<RetentionSettings> {
  await assertTenant(ctx, tenantId);
  const owned = await tenantOwnedTables(ctx.db);
  const entries = Object.entries(input.overrides) as [RetainedTable, Keep | null][];
  const fixed = entries
    .filter(([table]) => !(table in DATA_LIFECYCLE) || !overridable(table, owned.has(table)))
    .map(([table]) => `${table} is not a table whose period a tenant may change`);
  if (fixed.length > 0)
    throw new AppError('retention_not_overridable', fixed.join('; '), { problems: fixed });
  const problems = entries.flatMap(([table, keep]) => {
    const problem = keep && overrideProblem(table, keep);
    return problem ? [problem] : [];
  });
  if (problems.length > 0) throw new AppError('retention_out_of_bounds', problems.join('; '), { problems });

  await withTransaction(ctx, async (tx, ctx) => {
    for (const [table, keep] of entries) {
      if (keep) {
        await saveOverride(tx, {
          tenant_id: tenantId,
          table_name: table,
          keep,
          updated_at: ctx.clock.now(),
          updated_by: ctx.actor,
        });
      } else await removeOverride(tx, tenantId, table);
    }
    await audit(tx, forTenant(ctx, tenantId), 'retention.overrides_changed', { overrides: input.overrides });
  });
  return retentionSettings(ctx, tenantId);
}
