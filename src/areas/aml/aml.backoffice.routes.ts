import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import { decideCase, staffCaseDetail, staffCases, staffCaseView } from './aml.cases.service.js';
import { redriveDeadLetter, staffDeadLetters } from './aml.dead-letters.service.js';
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
import { amlSettings, setR009Window } from './aml.settings.service.js';

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
      (req) => staffCases(platform, req.query),
    );

    app.get(
      '/aml/cases/:case_id',
      { schema: { tags, params: CaseParams, response: { 200: StaffCaseDetail, ...errorResponses(404) } } },
      (req) => staffCaseDetail(platform, req.params.case_id),
    );

    app.post(
      '/aml/cases/:case_id/decision',
      {
        schema: {
          tags,
          params: CaseParams,
          body: DecisionRequest,
          response: { 200: StaffCase, ...errorResponses(400, 404, 409) },
        },
      },
      async (req) =>
        staffCaseView(await decideCase(platform, req.params.case_id, req.body, req.id), platform.clock.now()),
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
      (req) => staffDeadLetters(platform, req.query),
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
      (req) => redriveDeadLetter(platform, req.params.dead_letter_id, req.body, req.id),
    );

    app.get(
      '/tenants/:tenant_id/aml-settings',
      { schema: { tags, params: TenantParams, response: { 200: AmlSettings, ...errorResponses(404) } } },
      (req) => amlSettings(platform, req.params.tenant_id),
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
      (req) => setR009Window(platform, req.params.tenant_id, req.body.r009_window_hours, req.id),
    );
  };
}
