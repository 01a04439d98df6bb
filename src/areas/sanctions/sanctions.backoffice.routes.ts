import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses, RejectProposalRequest } from '../../platform/schemas.js';
import { requestStaffContext } from '../../platform/service-context.js';
import { sanctionsListsRoutes } from './lists/lists.routes.js';
import {
  CasesPage,
  CasesQuery,
  DecisionRequest,
  Dismissals,
  DismissalView,
  RescreenRequest,
  RescreenResult,
  RescreenRuns,
  RescreenUserRequest,
  ScreenSubjectParams,
  SanctionsCaseView,
  Screening,
  WithdrawDismissalRequest,
} from './sanctions.schemas.js';
import { playerDismissals, withdrawDismissal } from './service/dismissals.js';
import { approveDecision, decideCase, findCase, listCases, rejectDecision } from './service/cases.js';
import { rescreen, rescreenRuns, rescreenUser } from './service/rescreen.js';

const tags = ['sanctions'];
const CaseParams = Type.Object({ case_id: Type.String() });

/** Staff review: the only place matched list entries and per-entity scores appear. */
export function sanctionsBackofficeRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/sanctions/cases',
      {
        schema: {
          tags,
          summary: 'The review queue, oldest-due first, keyset-paginated (next_cursor)',
          querystring: CasesQuery,
          response: { 200: CasesPage, ...errorResponses(400) },
        },
      },
      (req) => listCases(requestStaffContext(platform, req), req.query),
    );

    app.get(
      '/sanctions/cases/:case_id',
      { schema: { tags, params: CaseParams, response: { 200: SanctionsCaseView, ...errorResponses(404) } } },
      (req) => findCase(requestStaffContext(platform, req), req.params.case_id),
    );

    app.post(
      '/sanctions/cases/:case_id/decision',
      {
        schema: {
          tags,
          summary: 'Clear or confirm a hit, with the reviewer and the reason (audited)',
          params: CaseParams,
          body: DecisionRequest,
          response: { 200: SanctionsCaseView, ...errorResponses(400, 403, 404, 409) },
        },
      },
      (req) => decideCase(requestStaffContext(platform, req), req.params.case_id, req.body),
    );

    app.post(
      '/sanctions/cases/:case_id/proposal/approve',
      {
        schema: {
          tags,
          summary:
            'A second member of staff approves the proposed confirmation: it takes effect now (four eyes)',
          params: CaseParams,
          response: { 200: SanctionsCaseView, ...errorResponses(403, 404, 409) },
        },
      },
      (req) => approveDecision(requestStaffContext(platform, req), req.params.case_id),
    );

    app.post(
      '/sanctions/cases/:case_id/proposal/reject',
      {
        schema: {
          tags,
          summary:
            'A second member of staff rejects the proposed confirmation: the hit awaits a decision again',
          params: CaseParams,
          body: RejectProposalRequest,
          response: { 200: SanctionsCaseView, ...errorResponses(400, 403, 404, 409) },
        },
      },
      (req) => rejectDecision(requestStaffContext(platform, req), req.params.case_id, req.body.reason),
    );

    app.post(
      '/sanctions/rescreen',
      {
        schema: {
          tags,
          summary: 'Re-screen every clear or cleared user (of one tenant, or all) now, batch by batch',
          body: RescreenRequest,
          response: { 200: RescreenResult, ...errorResponses(403, 404, 409, 503) },
        },
      },
      (req) => rescreen(platform, requestStaffContext(platform, req), req.body.tenant_id),
    );

    app.get(
      '/sanctions/rescreen',
      {
        schema: {
          tags,
          summary: 'The quarterly re-screens and their progress, newest first',
          response: { 200: RescreenRuns },
        },
      },
      (req) => rescreenRuns(requestStaffContext(platform, req)),
    );

    app.post(
      '/sanctions/tenants/:tenant_id/users/:user_id/rescreen',
      {
        schema: {
          tags,
          summary:
            'Re-screen one user now, optionally with a corrected name, date of birth or nationality (audited)',
          params: ScreenSubjectParams,
          body: RescreenUserRequest,
          response: { 200: Screening, ...errorResponses(400, 403, 404, 409, 503) },
        },
      },
      (req) =>
        rescreenUser(
          platform,
          requestStaffContext(platform, req),
          { tenantId: req.params.tenant_id, userId: req.params.user_id },
          req.body,
        ),
    );

    app.get(
      '/sanctions/tenants/:tenant_id/users/:user_id/dismissals',
      {
        schema: {
          tags,
          summary: "A player's remembered dismissals (matches cleared as false positives)",
          params: ScreenSubjectParams,
          response: { 200: Dismissals },
        },
      },
      (req) =>
        playerDismissals(requestStaffContext(platform, req), {
          tenantId: req.params.tenant_id,
          userId: req.params.user_id,
        }),
    );

    app.post(
      '/sanctions/dismissals/:dismissal_id/withdraw',
      {
        schema: {
          tags,
          summary:
            'Withdraw a dismissal: the next screening of the player considers the entity again (audited)',
          params: Type.Object({ dismissal_id: Type.String({ maxLength: 64 }) }),
          body: WithdrawDismissalRequest,
          response: { 200: DismissalView, ...errorResponses(400, 403, 404, 409) },
        },
      },
      (req) =>
        withdrawDismissal(requestStaffContext(platform, req), req.params.dismissal_id, req.body.reason),
    );

    await app.register(sanctionsListsRoutes(platform));
  };
}
