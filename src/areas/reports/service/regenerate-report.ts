import type { ServiceContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { periodBounds } from '../../../platform/utc-calendar.js';
import { REPORT_PERIOD_KINDS, type ReportType } from '../reports.tables.js';
import { compileReport } from './compile-report.js';
import { reportView, type ReportView } from './read-reports.js';
import { findTenant } from '../../../platform/tenants.store.js';

/**
 * Staff compile a closed period again (a fix to the generator, data corrected at the source): a new version, with
 * the reason and who asked; every earlier version stays as it was.
 */
export async function regenerateReport(
  ctx: ServiceContext,
  input: { tenant_id: string; report_type: ReportType; period: string; reason: string },
): Promise<ReportView> {
  const bounds = periodBounds(input.period);
  if (!bounds) {
    throw new AppError('invalid_request', 'period must be a UTC day (YYYY-MM-DD) or month (YYYY-MM)');
  }
  const kinds = REPORT_PERIOD_KINDS[input.report_type];
  if (!kinds.includes(bounds.kind)) {
    throw new AppError(
      'invalid_request',
      `The ${input.report_type} report is compiled for a ${kinds.join(' or a ')} only, not a ${bounds.kind}`,
    );
  }
  if (bounds.end > ctx.clock.now()) {
    throw new AppError('invalid_request', `Period ${input.period} has not ended yet: nothing to regenerate`);
  }
  const tenant = await findTenant(ctx.db, input.tenant_id);
  if (!tenant) throw new AppError('tenant_not_found', `No tenant ${input.tenant_id}`);
  const made = await compileReport(
    ctx,
    {
      tenantId: tenant.tenant_id,
      environment: tenant.environment,
      type: input.report_type,
      period: input.period,
    },
    { kind: 'regeneration', reason: input.reason },
  );
  return reportView(made!);
}
