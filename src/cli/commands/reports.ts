import type { Report } from '../../areas/reports/index.js';
import {
  command,
  flag,
  get,
  getFile,
  id,
  lines,
  oneOf,
  post,
  required,
  type Command,
  type Flags,
} from '../command.js';

const reportLine = (r: Report) =>
  `${r.report_id}  ${r.tenant_id}  ${r.report_type}  ${r.period}  v${r.version} ${r.version_kind}  ${r.row_count} rows  compiled ${String(r.compiled_at)}${r.reason ? `  reason: ${r.reason}` : ''}`;

function listQuery(f: Flags): string {
  const query = new URLSearchParams();
  for (const [name, param] of [
    ['tenant', 'tenant_id'],
    ['type', 'report_type'],
    ['period', 'period'],
    ['before', 'before'],
    ['limit', 'limit'],
  ] as const) {
    const value = flag(f, name);
    if (value) query.set(param, value);
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** The regulatory reports (docs/reports.md). */
export const REPORT_COMMANDS: Record<string, Command> = {
  'reports list': command(
    'reports list [--tenant <tenant_id>] [--type threshold|self_limitation|safer_gambling] [--period YYYY-MM-DD|YYYY-MM] [--before <report_id>] [--limit N]',
    (_, f) => get(`/reports${listQuery(f)}`),
    ({ reports }: { reports: Report[] }) => lines(reports.map(reportLine), 'No reports.'),
  ),
  'reports get': command(
    'reports get <report_id> [--format csv|json]',
    ([r], f) =>
      f.format === undefined
        ? get(`/reports/${id(r!)}`)
        : getFile(`/reports/${id(r!)}/content?format=${oneOf(f, 'format', ['csv', 'json'])}`),
    (body: Report | string) =>
      typeof body === 'string'
        ? body
        : `${reportLine(body)}\n  high-water mark ${String(body.high_water_mark)}  generator ${body.generator_version}\n  sha256 csv ${body.sha256_csv}\n  sha256 json ${body.sha256_json}`,
  ),
  'reports regenerate': command(
    'reports regenerate --tenant <tenant_id> --type threshold|self_limitation|safer_gambling --period <period> --reason <text>',
    (_, f) =>
      post('/reports/regenerate', {
        tenant_id: required(f, 'tenant'),
        report_type: oneOf(f, 'type', ['threshold', 'self_limitation', 'safer_gambling']),
        period: required(f, 'period'),
        reason: required(f, 'reason'),
      }),
    reportLine,
  ),
};
