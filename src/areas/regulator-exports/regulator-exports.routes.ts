import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import { requestStaffContext } from '../../platform/service-context.js';
import {
  AcknowledgeRequest,
  ExportFormatQuery,
  ExportParams,
  ExportsQuery,
  RegulatorExport,
  RerequestRequest,
} from './regulator-exports.schemas.js';
import { acknowledgeExport, exportFile, getExport, listExports, rerequestExport } from './service/exports.js';

const tags = ['regulator'];
const CONTENT_TYPES = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8' } as const;

/** The regulator's side of the hand-over: the exports, their files, and the acknowledgement. */
export function regulatorExportRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/regulator/exports',
      {
        schema: {
          tags,
          summary: 'The exports of operator-registered exclusions to the regulator, newest first',
          querystring: ExportsQuery,
          response: { 200: Type.Object({ exports: Type.Array(RegulatorExport) }), ...errorResponses(400) },
        },
      },
      (req) => listExports(requestStaffContext(platform, req), req.query),
    );

    app.get(
      '/regulator/exports/:export_id',
      {
        schema: {
          tags,
          summary: 'One export: its record, or with ?format=csv|json its file',
          params: ExportParams,
          querystring: ExportFormatQuery,
          response: { 200: RegulatorExport, ...errorResponses(400, 404) },
        },
      },
      async (req, reply) => {
        const ctx = requestStaffContext(platform, req);
        const { format } = req.query;
        if (!format) return getExport(ctx, req.params.export_id);
        const content = await exportFile(ctx, req.params.export_id, format);
        return (
          reply
            .type(CONTENT_TYPES[format])
            .header('content-disposition', `attachment; filename="${req.params.export_id}.${format}"`)
            // A stream skips the response schema: the file is sent as it is produced, a page of rows at a time.
            .send(Readable.from(content) as never)
        );
      },
    );

    app.post(
      '/regulator/exports/:export_id/ack',
      {
        schema: {
          tags,
          summary: "The regulator acknowledges an export: its exclusions' regulator_propagated becomes true",
          params: ExportParams,
          body: Type.Optional(AcknowledgeRequest),
          response: { 200: RegulatorExport, ...errorResponses(400, 404) },
        },
      },
      (req) => acknowledgeExport(requestStaffContext(platform, req), req.params.export_id),
    );

    app.post(
      '/regulator/exports/:export_id/rerequest',
      {
        schema: {
          tags,
          summary: "Send an earlier export's rows again, as a new export, with a reason",
          params: ExportParams,
          body: RerequestRequest,
          response: { 201: RegulatorExport, ...errorResponses(400, 404) },
        },
      },
      async (req, reply) =>
        reply
          .code(201)
          .send(
            await rerequestExport(requestStaffContext(platform, req), req.params.export_id, req.body.reason),
          ),
    );
  };
}
