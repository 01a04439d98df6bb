import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses, RejectProposalRequest } from '../../platform/schemas.js';
import { requestStaffContext } from '../../platform/service-context.js';
import {
  AmlSettings,
  CaseParams,
  DeadLetter,
  DeadLetterEntry,
  DeadLetterParams,
  DeadLettersQuery,
  DecisionRequest,
  RedriveRequest,
  SettingsRequest,
  StaffCase,
  StaffCaseDetail,
  StaffCasesPage,
  StaffCasesQuery,
} from './aml.schemas.js';
import { amlSettings } from './service/aml-settings.js';
import { approveDecision, decideCase, rejectDecision } from './service/decide-case.js';
import { redriveDeadLetter } from './service/redrive-dead-letter.js';
import { setR009Window } from './service/set-r009-window.js';
import { staffCaseDetail, staffCases } from './service/staff-cases.js';
import { staffDeadLetters } from './service/list-dead-letters.js';

import { sarPack } from './service/sar-pack.js';

const tags = ['aml'];
const TenantParams = Type.Object({ tenant_id: Type.String() });

/** Staff review: the only place rule descriptions, findings and the triggering transactions appear. */
export function amlBackofficeRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/aml/cases',
      {
        schema: {
          tags,
          summary: 'The review queue: oldest-due first, keyset-paginated by cursor',
          querystring: StaffCasesQuery,
          response: { 200: StaffCasesPage, ...errorResponses(400) },
        },
      },
      (req) => staffCases(requestStaffContext(platform, req), req.query),
    );

    app.get(
      '/aml/cases/:case_id',
      { schema: { tags, params: CaseParams, response: { 200: StaffCaseDetail, ...errorResponses(404) } } },
      (req) => staffCaseDetail(requestStaffContext(platform, req), req.params.case_id),
    );

    app.get(
      '/aml/cases/:case_id/sar-pack',
      {
        schema: {
          tags,
          summary:
            'The SAR pack of a case escalated for a SAR: one JSON file for the MLRO to file (staff only)',
          params: CaseParams,
          response: { 200: Type.String(), ...errorResponses(404, 409) },
        },
      },
      async (req, reply) => {
        const pack = await sarPack(requestStaffContext(platform, req), req.params.case_id);
        return reply
          .type('application/json; charset=utf-8')
          .header('content-disposition', `attachment; filename="sar-pack-${req.params.case_id}.json"`)
          .send(JSON.stringify(pack, null, 2));
      },
    );

    app.post(
      '/aml/cases/:case_id/decision',
      {
        schema: {
          tags,
          params: CaseParams,
          body: DecisionRequest,
          response: { 200: StaffCase, ...errorResponses(400, 403, 404, 409) },
        },
      },
      (req) => decideCase(requestStaffContext(platform, req), req.params.case_id, req.body),
    );

    app.post(
      '/aml/cases/:case_id/proposal/approve',
      {
        schema: {
          tags,
          summary: 'A second member of staff approves the proposed freeze or escalation: it takes effect now',
          params: CaseParams,
          response: { 200: StaffCase, ...errorResponses(403, 404, 409) },
        },
      },
      (req) => approveDecision(requestStaffContext(platform, req), req.params.case_id),
    );

    app.post(
      '/aml/cases/:case_id/proposal/reject',
      {
        schema: {
          tags,
          summary: 'A second member of staff rejects the proposal: the case awaits a decision again',
          params: CaseParams,
          body: RejectProposalRequest,
          response: { 200: StaffCase, ...errorResponses(400, 403, 404, 409) },
        },
      },
      (req) => rejectDecision(requestStaffContext(platform, req), req.params.case_id, req.body.reason),
    );

    app.get(
      '/aml/dead-letters',
      {
        schema: {
          tags,
          summary: 'AML events whose evaluation failed on every attempt, oldest first',
          querystring: DeadLettersQuery,
          response: { 200: Type.Object({ dead_letters: Type.Array(DeadLetterEntry) }) },
        },
      },
      (req) => staffDeadLetters(requestStaffContext(platform, req), req.query),
    );

    app.post(
      '/aml/dead-letters/:dead_letter_id/redrive',
      {
        schema: {
          tags,
          summary: 'Put a dead-lettered event back in the evaluation queue',
          params: DeadLetterParams,
          body: RedriveRequest,
          response: { 200: DeadLetter, ...errorResponses(400, 404, 409) },
        },
      },
      (req) => redriveDeadLetter(requestStaffContext(platform, req), req.params.dead_letter_id, req.body),
    );

    app.get(
      '/tenants/:tenant_id/aml-settings',
      { schema: { tags, params: TenantParams, response: { 200: AmlSettings, ...errorResponses(404) } } },
      (req) => amlSettings(requestStaffContext(platform, req), req.params.tenant_id),
    );

    app.put(
      '/tenants/:tenant_id/aml-settings',
      {
        schema: {
          tags,
          params: TenantParams,
          body: SettingsRequest,
          response: { 200: AmlSettings, ...errorResponses(404) },
        },
      },
      (req) =>
        setR009Window(requestStaffContext(platform, req), req.params.tenant_id, req.body.r009_window_hours),
    );
  };
}
