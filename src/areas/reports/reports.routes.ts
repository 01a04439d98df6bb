import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import { requestStaffContext } from '../../platform/service-context.js';
import { ContentQuery, RegenerateRequest, Report, ReportParams, ReportsQuery } from './reports.schemas.js';
import { getReport, listReports, reportContent } from './service/read-reports.js';
import { regenerateReport } from './service/regenerate-report.js';

const tags = ['reports'];
const CONTENT_TYPES = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8' } as const;

/** The regulatory reports, for the staff and the regulator role (back office; never the tenant API). */
export function reportRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/reports',
      {
        schema: {
          tags,
          summary: 'Report versions, newest first; filter by tenant, type and period',
          querystring: ReportsQuery,
          response: { 200: Type.Object({ reports: Type.Array(Report) }), ...errorResponses(400) },
        },
      },
      (req) => listReports(requestStaffContext(platform, req), req.query),
    );

    app.get(
      '/reports/:report_id',
      {
        schema: {
          tags,
          summary: 'One version: period, version, digests, high-water mark, daily counts',
          params: ReportParams,
          response: { 200: Report, ...errorResponses(404) },
        },
      },
      (req) => getReport(requestStaffContext(platform, req), req.params.report_id),
    );

    app.get(
      '/reports/:report_id/content',
      {
        schema: {
          tags,
          summary: "The version's file, CSV or JSON, exactly as stored (its SHA-256 is the recorded digest)",
          params: ReportParams,
          querystring: ContentQuery,
          response: { 200: Type.String(), ...errorResponses(400, 404) },
        },
      },
      async (req, reply) => {
        const { format } = req.query;
        const content = await reportContent(requestStaffContext(platform, req), req.params.report_id, format);
        return reply
          .type(CONTENT_TYPES[format])
          .header('content-disposition', `attachment; filename="${req.params.report_id}.${format}"`)
          .send(content);
      },
    );

    app.post(
      '/reports/regenerate',
      {
        schema: {
          tags,
          summary: 'Compile a closed period again, with a reason: a new version; earlier ones stay',
          body: RegenerateRequest,
          response: { 201: Report, ...errorResponses(400, 404) },
        },
      },
      async (req, reply) =>
        reply.code(201).send(await regenerateReport(requestStaffContext(platform, req), req.body)),
    );
  };
}
