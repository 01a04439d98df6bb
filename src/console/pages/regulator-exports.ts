import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  acknowledgeExport,
  exportFile,
  listExports,
  type ExportView,
} from '../../areas/regulator-exports/index.js';
import type { Platform, StaffMember } from '../../platform/context.js';
import { roleMay, displayNames } from '../../staff/index.js';
import { consoleContext, memberOf } from '../console-auth.js';
import { html, time, type Html } from '../../platform/html.js';
import { csrfField, page } from '../layout.js';
import { redirectWithNotice, sendPage } from './respond.js';

const CURRENT = '/console/regulator/exports';
const ExportParams = Type.Object({ export_id: Type.String({ maxLength: 64 }) });

function exportRow(e: ExportView, member: StaffMember, names: Map<string, string>): Html {
  const mayAcknowledge = roleMay(member.role, 'acknowledge_exports');
  return html`<tr>
    <td><code>${e.export_id}</code></td>
    <td>${e.environment}</td>
    <td>${e.kind === 'daily' ? 'Daily' : html`Re-request of <code>${e.rerequest_of}</code>: ${e.reason}`}</td>
    <td>${e.export_date}</td>
    <td>${e.row_count}</td>
    <td>
      <a href="${CURRENT}/${e.export_id}/file?format=csv" download>CSV</a>
      <a href="${CURRENT}/${e.export_id}/file?format=json" download>JSON</a>
    </td>
    <td>
      ${
        e.acknowledged_at
          ? html`${time(e.acknowledged_at)}<br /><span class="muted"
                >${names.get(e.acknowledged_by ?? '') ?? e.acknowledged_by}</span
              >`
          : mayAcknowledge
            ? html`<form method="post" action="${CURRENT}/${e.export_id}/ack" class="inline">
                ${csrfField(member)}
                <button type="submit">Acknowledge <span class="visually-hidden">${e.export_id}</span></button>
              </form>`
            : html`<span class="muted">Not yet</span>`
      }
    </td>
  </tr>`;
}

/** The daily hand-over of the register to the regulator: the exports, their files, and the acknowledgement. */
export function regulatorExportPages(app: FastifyInstance, platform: Platform): void {
  app.get<{ Querystring: { notice?: string } }>(
    CURRENT,
    {
      config: { staffAction: 'read_reports' },
      schema: { querystring: Type.Object({ notice: Type.Optional(Type.String({ maxLength: 200 })) }) },
    },
    async (request, reply) => {
      const member = memberOf(request);
      const { exports } = await listExports(consoleContext(platform, request), { limit: 100 });
      const names = await displayNames(
        platform.db,
        exports.flatMap((e) => (e.acknowledged_by ? [e.acknowledged_by] : [])),
      );
      const body = html`<p>
          Every day at 00:10 UTC the operators' new exclusions are exported for the regulator, one export per
          environment. Acknowledging an export marks its exclusions as propagated to the regulator.
        </p>
        ${
          exports.length
            ? html`<table>
                <caption>
                  Exports, newest first
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Export</th>
                    <th scope="col">Environment</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Day (UTC)</th>
                    <th scope="col">Rows</th>
                    <th scope="col">Files</th>
                    <th scope="col">Acknowledged</th>
                  </tr>
                </thead>
                <tbody>
                  ${exports.map((e) => exportRow(e, member, names))}
                </tbody>
              </table>`
            : html`<p>No exports yet.</p>`
        }`;
      return sendPage(
        reply,
        page({ title: 'Regulator exports', member, current: CURRENT, notice: request.query.notice }, body),
      );
    },
  );

  app.get<{ Params: { export_id: string }; Querystring: { format: 'csv' | 'json' } }>(
    `${CURRENT}/:export_id/file`,
    {
      config: { staffAction: 'read_reports' },
      schema: {
        params: ExportParams,
        querystring: Type.Object({ format: Type.Enum(['csv', 'json'] as const) }),
      },
    },
    async (request, reply) => {
      const { format } = request.query;
      const content = await exportFile(consoleContext(platform, request), request.params.export_id, format);
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${request.params.export_id}.${format}"`)
        .send(Readable.from(content));
    },
  );

  app.post<{ Params: { export_id: string } }>(
    `${CURRENT}/:export_id/ack`,
    { config: { staffAction: 'acknowledge_exports' }, schema: { params: ExportParams } },
    async (request, reply) => {
      const acknowledged = await acknowledgeExport(
        consoleContext(platform, request),
        request.params.export_id,
      );
      return redirectWithNotice(
        reply,
        CURRENT,
        `Export ${acknowledged.export_id} acknowledged: ${acknowledged.row_count === 1 ? '1 exclusion is' : `${acknowledged.row_count} exclusions are`} now propagated to the regulator`,
      );
    },
  );
}
