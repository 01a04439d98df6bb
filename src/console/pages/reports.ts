import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import {
  REPORT_TYPES,
  type ReportType,
  dailyRowCounts,
  getReport,
  listReports,
  reportContent,
  type ReportView,
} from '../../areas/reports/index.js';
import type { Platform } from '../../platform/context.js';
import { barChart } from '../chart.js';
import { consoleContext, memberOf } from '../console-auth.js';
import { html, time, type Html } from '../../platform/html.js';
import { page } from '../layout.js';
import { sendPage } from './respond.js';

const CURRENT = '/console/reports';
const PAGE_SIZE = 50;
const CHART_DAYS = 30;
const TYPE_NAMES: Record<ReportType, string> = {
  threshold: 'Threshold (USD 10,000)',
  self_limitation: 'Self-limitation',
  safer_gambling: 'Safer gambling (monthly)',
};

const Text = Type.Optional(Type.String({ maxLength: 64 }));
const ReportsPageQuery = Type.Object({
  tenant: Text,
  type: Type.Optional(Type.Enum(REPORT_TYPES)),
  // Empty: every period (the form's field left blank).
  period: Type.Optional(
    Type.Union([Type.Literal(''), Type.String({ format: 'date-or-month', maxLength: 10 })]),
  ),
  before: Text,
});
type ReportsPageQuery = Static<typeof ReportsPageQuery>;

function filterForm(query: ReportsPageQuery): Html {
  const type = query.type ?? 'threshold';
  return html`<form method="get" action="${CURRENT}" class="row">
    <div class="stack">
      <label for="tenant">Tenant</label>
      <p class="hint" id="tenant-hint">Tenant id; empty for every tenant</p>
      <input
        id="tenant"
        name="tenant"
        type="text"
        value="${query.tenant ?? ''}"
        aria-describedby="tenant-hint"
      />
    </div>
    <div class="stack">
      <label for="type">Report</label>
      <p class="hint" id="type-hint">Which report the chart counts</p>
      <select id="type" name="type" aria-describedby="type-hint">
        ${REPORT_TYPES.map(
          (t) => html`<option value="${t}" ${t === type ? html`selected` : ''}>${TYPE_NAMES[t]}</option>`,
        )}
      </select>
    </div>
    <div class="stack">
      <label for="period">Period</label>
      <p class="hint" id="period-hint">A day (2030-01-31) or a month (2030-01); empty for all</p>
      <input
        id="period"
        name="period"
        type="text"
        value="${query.period ?? ''}"
        aria-describedby="period-hint"
      />
    </div>
    <button type="submit">Show</button>
  </form>`;
}

function versionsTable(reports: ReportView[]): Html {
  if (reports.length === 0) return html`<p>No reports match.</p>`;
  return html`<table>
    <caption>
      Report versions, newest first
    </caption>
    <thead>
      <tr>
        <th scope="col">Report</th>
        <th scope="col">Tenant</th>
        <th scope="col">Type</th>
        <th scope="col">Period</th>
        <th scope="col">Version</th>
        <th scope="col">Rows</th>
        <th scope="col">Compiled</th>
      </tr>
    </thead>
    <tbody>
      ${reports.map(
        (r) =>
          html`<tr>
            <td><a href="${CURRENT}/${r.report_id}">${r.report_id}</a></td>
            <td>${r.tenant_id}</td>
            <td>${TYPE_NAMES[r.report_type]}</td>
            <td>${r.period}</td>
            <td>${r.version} (${r.version_kind})</td>
            <td>${r.row_count}</td>
            <td>${time(r.compiled_at)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function countsTable(bars: { label: string; value: number }[], caption: string): Html {
  return html`<details>
    <summary>${caption} as a table</summary>
    <table>
      <thead>
        <tr>
          <th scope="col">Day (UTC)</th>
          <th scope="col">Rows</th>
        </tr>
      </thead>
      <tbody>
        ${bars.map(
          (b) =>
            html`<tr>
              <td>${b.label}</td>
              <td>${b.value}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </details>`;
}

function listUrl(query: ReportsPageQuery, before?: string): string {
  const params = new URLSearchParams();
  for (const key of ['tenant', 'type', 'period'] as const) if (query[key]) params.set(key, query[key]);
  if (before) params.set('before', before);
  const search = params.toString();
  return search ? `${CURRENT}?${search}` : CURRENT;
}

/** The regulatory reports: versions listed with a chart of daily counts, one version's page, and its files. */
export function reportPages(app: FastifyInstance, platform: Platform): void {
  app.get<{ Querystring: ReportsPageQuery }>(
    CURRENT,
    { config: { staffAction: 'read_reports' }, schema: { querystring: ReportsPageQuery } },
    async (request, reply) => {
      const member = memberOf(request);
      const ctx = consoleContext(platform, request);
      const query = request.query;
      const type = query.type ?? 'threshold';
      const tenant = query.tenant?.trim() || undefined;
      const [{ reports }, bars] = await Promise.all([
        listReports(ctx, {
          tenant_id: tenant,
          report_type: query.type,
          period: query.period || undefined,
          before: query.before,
          limit: PAGE_SIZE + 1,
        }),
        dailyRowCounts(ctx, { tenantId: tenant, type, days: CHART_DAYS }),
      ]);
      const shown = reports.slice(0, PAGE_SIZE);
      const title = `${TYPE_NAMES[type]}: rows a day, last ${CHART_DAYS} days${tenant ? `, tenant ${tenant}` : ', every tenant'}`;
      const body = html`${filterForm(query)}
        ${barChart(bars, {
          id: 'daily-rows',
          title,
          description: `Bar chart of the rows in each day's latest ${TYPE_NAMES[type].toLowerCase()} report, from ${bars[0]!.label} to ${bars.at(-1)!.label}; the highest day has ${Math.max(...bars.map((b) => b.value))} rows.`,
        })}
        ${countsTable(bars, 'Rows a day')} ${versionsTable(shown)}
        <p class="row">
          ${query.before ? html`<a href="${listUrl(query)}">Newest versions</a>` : ''}
          ${
            reports.length > PAGE_SIZE
              ? html`<a rel="next" href="${listUrl(query, shown.at(-1)!.report_id)}">Older versions</a>`
              : ''
          }
        </p>`;
      return sendPage(reply, page({ title: 'Reports', member, current: CURRENT }, body));
    },
  );

  app.get<{ Params: { report_id: string } }>(
    `${CURRENT}/:report_id`,
    {
      config: { staffAction: 'read_reports' },
      schema: { params: Type.Object({ report_id: Type.String({ maxLength: 64 }) }) },
    },
    async (request, reply) => {
      const member = memberOf(request);
      const ctx = consoleContext(platform, request);
      const report = await getReport(ctx, request.params.report_id);
      const { reports: siblings } = await listReports(ctx, {
        tenant_id: report.tenant_id,
        report_type: report.report_type,
        period: report.period,
        limit: 100,
      });
      const bars = Object.entries(report.daily_counts).map(([label, value]) => ({ label, value }));
      const rows: [string, Html | string | number][] = [
        ['Tenant', report.tenant_id],
        ['Type', TYPE_NAMES[report.report_type]],
        ['Period', `${report.period} (${report.period_kind})`],
        ['Version', `${report.version}: ${report.version_kind}`],
        ['Reason', report.reason ?? '—'],
        ['Requested by', report.requested_by],
        ['Compiled', time(report.compiled_at)],
        ['High-water mark', time(report.high_water_mark)],
        ['Generator', report.generator_version],
        ['Rows', report.row_count],
        ['SHA-256 (CSV)', html`<code>${report.sha256_csv}</code>`],
        ['SHA-256 (JSON)', html`<code>${report.sha256_json}</code>`],
      ];
      const body = html`<dl class="facts">
          ${rows.map(
            ([term, value]) =>
              html`<dt>${term}</dt>
                <dd>${value}</dd>`,
          )}
        </dl>
        <p class="row">
          <a href="${CURRENT}/${report.report_id}/content?format=csv" download>Download CSV</a>
          <a href="${CURRENT}/${report.report_id}/content?format=json" download>Download JSON</a>
        </p>
        ${
          bars.length
            ? html`${barChart(bars, {
                id: 'report-days',
                title: `Rows by day in ${report.report_id}`,
                description: `Bar chart of the report's rows on each UTC day of ${report.period}: ${bars.length} days with rows, ${report.row_count} rows in all.`,
              })}
              ${countsTable(bars, 'Rows by day')}`
            : html`<p>This version has no rows.</p>`
        }
        <h2>Every version of this period</h2>
        ${versionsTable(siblings)}`;
      return sendPage(
        reply,
        page(
          {
            title: `${TYPE_NAMES[report.report_type]} report, ${report.period}, version ${report.version}`,
            member,
            current: CURRENT,
          },
          body,
        ),
      );
    },
  );

  app.get<{ Params: { report_id: string }; Querystring: { format: 'csv' | 'json' } }>(
    `${CURRENT}/:report_id/content`,
    {
      config: { staffAction: 'read_reports' },
      schema: {
        params: Type.Object({ report_id: Type.String({ maxLength: 64 }) }),
        querystring: Type.Object({ format: Type.Enum(['csv', 'json'] as const) }),
      },
    },
    async (request, reply) => {
      const { format } = request.query;
      const text = await reportContent(consoleContext(platform, request), request.params.report_id, format);
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${request.params.report_id}.${format}"`)
        .send(text);
    },
  );
}
