import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses, RejectProposalRequest } from '../../platform/schemas.js';
import { requestStaffContext } from '../../platform/service-context.js';
import { RegulatorRequest, RegulatorResult, StaffExclusion, VoidRequest } from './exclusions.schemas.js';
import { ContactDataExport } from '../../platform/data-export.schemas.js';
import { addRegulatorEntries } from './service/add-regulator-entries.js';
import { exportContact } from './service/export-contact.js';
import { confirmVoid, getStaffExclusion, rejectVoid, voidExclusion } from './service/void-exclusion.js';

const tags = ['exclusions'];
const params = Type.Object({ exclusion_id: Type.String({ maxLength: 64 }) });
const config = { validationErrorCode: 'invalid_payload' } as const;

/**
 * The staff's part of the register, under /backoffice/v1 behind its token or a staff session (no per-key rate
 * limit there): the regulator's comprehensive form, a row's staff view, and the void of a row registered in error.
 */
export function exclusionBackofficeRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/contacts/export',
      {
        config,
        schema: {
          tags,
          summary: 'Everything held about one email or phone in the register, across tenants (audited)',
          body: Type.Object(
            {
              email: Type.Optional(Type.String({ maxLength: 320 })),
              phone: Type.Optional(Type.String({ maxLength: 64 })),
            },
            { additionalProperties: false },
          ),
          response: { 200: ContactDataExport, ...errorResponses(400, 404) },
        },
      },
      (req) => exportContact(platform, requestStaffContext(platform, req), req.body),
    );

    app.post(
      '/regulator/exclusions',
      {
        config: { validationErrorCode: 'invalid_payload' },
        schema: {
          tags: ['exclusions'],
          summary: "Add entries of the regulator's comprehensive form to the master list",
          description:
            'One entry, or a batch under entries (1 to 1000), each with email and/or phone, duration and environment. 201 when any row was created, 200 when every entry was already on the list.',
          body: RegulatorRequest,
          response: { 200: RegulatorResult, 201: RegulatorResult, ...errorResponses(400, 401) },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const entries = 'entries' in body ? body.entries : [body];
        const { result, created } = await addRegulatorEntries(
          platform,
          requestStaffContext(platform, request),
          entries,
        );
        return reply.code(created > 0 ? 201 : 200).send(result);
      },
    );

    app.get(
      '/exclusions/:exclusion_id',
      {
        config,
        schema: {
          tags,
          summary: 'One register row, with its contacts and any void',
          params,
          response: { 200: StaffExclusion, ...errorResponses(404) },
        },
      },
      (request) => getStaffExclusion(requestStaffContext(platform, request), request.params.exclusion_id),
    );

    app.post(
      '/exclusions/:exclusion_id/void',
      {
        config,
        schema: {
          tags,
          summary: 'Void a row registered in error',
          description:
            'A signed-in member of staff only (the back-office token is refused). A timed row is voided at once (200): it stops matching and exclusion.voided goes to every tenant entitled to know of it. A permanent row is only proposed for voiding (202, pending_proposal set) until a second member of staff approves.',
          params,
          body: VoidRequest,
          response: { 200: StaffExclusion, 202: StaffExclusion, ...errorResponses(400, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const staff = requestStaffContext(platform, request);
        const { exclusion, voided } = await voidExclusion(staff, request.params.exclusion_id, request.body);
        return reply.code(voided ? 200 : 202).send(exclusion);
      },
    );

    app.post(
      '/exclusions/:exclusion_id/void/confirm',
      {
        config,
        schema: {
          tags,
          summary:
            'Approve a proposed void of a permanent exclusion (a second member of staff): it takes effect now',
          params,
          response: { 200: StaffExclusion, ...errorResponses(403, 404, 409) },
        },
      },
      (request) => confirmVoid(requestStaffContext(platform, request), request.params.exclusion_id),
    );

    app.post(
      '/exclusions/:exclusion_id/void/reject',
      {
        config,
        schema: {
          tags,
          summary:
            'Reject a proposed void of a permanent exclusion (a second member of staff): the row stays',
          params,
          body: RejectProposalRequest,
          response: { 200: StaffExclusion, ...errorResponses(400, 403, 404, 409) },
        },
      },
      (request) =>
        rejectVoid(requestStaffContext(platform, request), request.params.exclusion_id, request.body.reason),
    );
  };
}
