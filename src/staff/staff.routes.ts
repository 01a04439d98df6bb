import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from '../platform/context.js';
import { addNote, caseWork, takeCase } from '../platform/case-work/assignment.js';
import { AppError } from '../platform/errors.js';
import { errorResponses, RejectProposalRequest } from '../platform/schemas.js';
import { requestStaffContext } from '../platform/service-context.js';
import {
  CaseParams,
  CaseWork,
  CreateStaffRequest,
  NoteRequest,
  StaffAccount,
  StaffParams,
  SetRoleRequest,
  StaffSession,
} from './staff.schemas.js';
import {
  approveStaffChange,
  createStaff,
  disableStaff,
  enableStaff,
  issueSetupLink,
  listStaff,
  rejectStaffChange,
  setStaffRole,
} from './service/accounts.js';

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
        if (!req.staffMember) throw new AppError('not_found', 'The back-office token has no staff session');
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
          summary: 'Create a named account; its holder gets a one-time setup link by mail',
          description:
            'An admin signed in creates accounts. A reviewer, auditor or regulator account is invited at once (201); an admin or supervisor account is proposed (202) until a second admin approves it. The back-office token creates only the first two admins of a deployment.',
          body: CreateStaffRequest,
          response: { 201: StaffAccount, 202: StaffAccount, ...errorResponses(400, 403, 409) },
        },
      },
      async (req, reply) => {
        const account = await createStaff(platform, requestStaffContext(platform, req), req.body);
        return reply.code(account.status === 'proposed' ? 202 : 201).send(account);
      },
    );

    app.post(
      '/staff/:staff_id/disable',
      {
        schema: {
          tags,
          params: StaffParams,
          response: { 200: StaffAccount, ...errorResponses(403, 404, 409) },
        },
      },
      (req) => disableStaff(requestStaffContext(platform, req), req.params.staff_id),
    );

    app.post(
      '/staff/:staff_id/enable',
      {
        schema: {
          tags,
          summary:
            'Re-enable a disabled account (an admin or supervisor account once a second admin approves)',
          params: StaffParams,
          response: { 200: StaffAccount, ...errorResponses(403, 404, 409) },
        },
      },
      (req) => enableStaff(platform, requestStaffContext(platform, req), req.params.staff_id),
    );

    app.post(
      '/staff/:staff_id/role',
      {
        schema: {
          tags,
          summary:
            "Change an account's role (raising it to admin or supervisor once a second admin approves)",
          params: StaffParams,
          body: SetRoleRequest,
          response: { 200: StaffAccount, ...errorResponses(400, 403, 404, 409) },
        },
      },
      (req) => setStaffRole(platform, requestStaffContext(platform, req), req.params.staff_id, req.body.role),
    );

    app.post(
      '/staff/:staff_id/proposal/approve',
      {
        schema: {
          tags,
          summary: "A second admin approves the account's pending change: it takes effect now",
          params: StaffParams,
          response: { 200: StaffAccount, ...errorResponses(403, 404, 409) },
        },
      },
      (req) => approveStaffChange(platform, requestStaffContext(platform, req), req.params.staff_id),
    );

    app.post(
      '/staff/:staff_id/proposal/reject',
      {
        schema: {
          tags,
          summary: "A second admin rejects the account's pending change (a proposed account is removed)",
          params: StaffParams,
          body: RejectProposalRequest,
          response: { 200: StaffAccount, ...errorResponses(400, 403, 404, 409) },
        },
      },
      (req) => rejectStaffChange(requestStaffContext(platform, req), req.params.staff_id, req.body.reason),
    );

    app.post(
      '/staff/:staff_id/setup-link',
      {
        schema: {
          tags,
          summary:
            'Mail the holder a new one-time link to set the password and authenticator again (the old ones stop working)',
          params: StaffParams,
          response: { 200: StaffAccount, ...errorResponses(403, 404) },
        },
      },
      (req) => issueSetupLink(platform, requestStaffContext(platform, req), req.params.staff_id),
    );

    app.get(
      '/cases/:subject/:subject_id/work',
      { schema: { tags, params: CaseParams, response: { 200: CaseWork } } },
      (req) => caseWork(requestStaffContext(platform, req), req.params.subject, req.params.subject_id),
    );

    app.post(
      '/cases/:subject/:subject_id/take',
      { schema: { tags, params: CaseParams, response: { 200: CaseWork, ...errorResponses(403) } } },
      (req) => takeCase(requestStaffContext(platform, req), req.params.subject, req.params.subject_id),
    );

    app.post(
      '/cases/:subject/:subject_id/notes',
      {
        schema: {
          tags,
          params: CaseParams,
          body: NoteRequest,
          response: { 200: CaseWork, ...errorResponses(400, 403) },
        },
      },
      (req) =>
        addNote(requestStaffContext(platform, req), req.params.subject, req.params.subject_id, req.body.body),
    );
  };
}
