import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import { decideCase, staffCaseDetail, staffCases, staffCaseView } from './aml.cases.service.js';
import {
  AmlSettings,
  CaseParams,
  DecisionRequest,
  SettingsRequest,
  StaffCase,
  StaffCaseDetail,
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
          querystring: StaffCasesQuery,
          response: { 200: Type.Object({ cases: Type.Array(StaffCase) }) },
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
          response: { 200: StaffCase, ...errorResponses(404, 409) },
        },
      },
      async (req) => staffCaseView(await decideCase(platform, req.params.case_id, req.body, req.id)),
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
