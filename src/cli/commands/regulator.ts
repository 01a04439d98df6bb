import type { RegulatorExport } from '../../areas/regulator-exports/index.js';
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

const exportLine = (e: RegulatorExport) =>
  [
    `${e.export_id}  ${e.environment}  ${e.kind}  ${e.export_date}  ${e.row_count} rows`,
    e.acknowledged_at
      ? `acknowledged ${String(e.acknowledged_at)} by ${e.acknowledged_by}`
      : 'not acknowledged',
    e.rerequest_of ? `re-request of ${e.rerequest_of}: ${e.reason}` : '',
  ]
    .filter(Boolean)
    .join('  ');

const exportsQuery = (f: Flags) => {
  const query = new URLSearchParams();
  const environment = flag(f, 'env');
  if (environment) query.set('environment', environment);
  const before = flag(f, 'before');
  if (before) query.set('before', before);
  const limit = flag(f, 'limit');
  if (limit) query.set('limit', limit);
  const text = query.toString();
  return text ? `?${text}` : '';
};

/** The hand-over of the register to the regulator (docs/exclusions.md). */
export const REGULATOR_COMMANDS: Record<string, Command> = {
  'regulator exports': command(
    'regulator exports [--env live|sandbox] [--before <export_id>] [--limit N]',
    (_, f) => get(`/regulator/exports${exportsQuery(f)}`),
    ({ exports }: { exports: RegulatorExport[] }) => lines(exports.map(exportLine), 'No exports.'),
  ),
  'regulator export': command(
    'regulator export <export_id> [--format csv|json]',
    ([e], f) =>
      f.format === undefined
        ? get(`/regulator/exports/${id(e!)}`)
        : getFile(`/regulator/exports/${id(e!)}?format=${oneOf(f, 'format', ['csv', 'json'])}`),
    (body: RegulatorExport | string) =>
      typeof body === 'string'
        ? body
        : `${exportLine(body)}\n  sha256 csv ${body.sha256_csv}\n  sha256 json ${body.sha256_json}`,
  ),
  'regulator ack': command(
    'regulator ack <export_id>',
    ([e]) => post(`/regulator/exports/${id(e!)}/ack`, {}),
    exportLine,
  ),
  'regulator rerequest': command(
    'regulator rerequest <export_id> --reason <text>',
    ([e], f) => post(`/regulator/exports/${id(e!)}/rerequest`, { reason: required(f, 'reason') }),
    exportLine,
  ),
};
