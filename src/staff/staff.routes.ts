import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from '../platform/context.js';
import { AppError } from '../platform/errors.js';
import { errorResponses } from '../platform/schemas.js';
import { requestStaffContext } from '../platform/service-context.js';
import {
  CaseParams,
  CaseWork,
  CreateStaffRequest,
  NoteRequest,
  StaffAccount,
  StaffParams,
  StaffSession,
  StaffWithSetupLink,
} from './staff.schemas.js';
import {
  addNote,
  caseWork,
  createStaff,
  disableStaff,
  issueSetupLink,
  listStaff,
  takeCase,
} from './staff.service.js';

const tags = ['staff'];

/** Staff accounts (admins) and the case work every queue shares: take, notes. */
export function staffRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/session',
      {
        schema: {
          tags,
          summary:
            "The signed-in member of staff and the session's anti-forgery token (send it as x-csrf-token)",
          response: { 200: StaffSession, ...errorResponses(404) },
        },
      },
      async (req) => {
        if (!req.staffMember)
          throw new AppError('not_found', 404, 'The back-office token has no staff session');
        return req.staffMember;
      },
    );

    app.get(
      '/staff',
      { schema: { tags, response: { 200: Type.Object({ staff: Type.Array(StaffAccount) }) } } },
      async (req) => ({ staff: await listStaff(requestStaffContext(platform, req)) }),
    );

    app.post(
      '/staff',
      {
        schema: {
          tags,
          summary: 'Create a named account; its holder sets a password and an authenticator through the link',
          body: CreateStaffRequest,
          response: { 201: StaffWithSetupLink, ...errorResponses(400, 409) },
        },
      },
      async (req, reply) =>
        reply.code(201).send(await createStaff(requestStaffContext(platform, req), req.body)),
    );

    app.post(
      '/staff/:staff_id/disable',
      { schema: { tags, params: StaffParams, response: { 200: StaffAccount, ...errorResponses(404) } } },
      (req) => disableStaff(requestStaffContext(platform, req), req.params.staff_id),
    );

    app.post(
      '/staff/:staff_id/setup-link',
      {
        schema: {
          tags,
          summary:
            'A new one-time link to set the password and authenticator again (the old ones stop working)',
          params: StaffParams,
          response: { 200: StaffWithSetupLink, ...errorResponses(404) },
        },
      },
      (req) => issueSetupLink(requestStaffContext(platform, req), req.params.staff_id),
    );

    app.get(
      '/cases/:subject/:subject_id/work',
      { schema: { tags, params: CaseParams, response: { 200: CaseWork } } },
      (req) => caseWork(requestStaffContext(platform, req), req.params.subject, req.params.subject_id),
    );

    app.post(
      '/cases/:subject/:subject_id/take',
      { schema: { tags, params: CaseParams, response: { 200: CaseWork, ...errorResponses(403) } } },
      (req) =>
        takeCase(
          requestStaffContext(platform, req),
          req.staffMember?.staff_id,
          req.params.subject,
          req.params.subject_id,
        ),
    );

    app.post(
      '/cases/:subject/:subject_id/notes',
      {
        schema: {
          tags,
          params: CaseParams,
          body: NoteRequest,
          response: { 200: CaseWork, ...errorResponses(400) },
        },
      },
      (req) =>
        addNote(requestStaffContext(platform, req), req.params.subject, req.params.subject_id, req.body.body),
    );
  };
}
