import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { errorResponses } from '../../platform/schemas.js';
import { decideCase, rescreen } from './sanctions.review.js';
import {
  CasesQuery,
  DecisionRequest,
  RescreenRequest,
  RescreenResult,
  SanctionsCaseView,
  Screening,
  ScreenRequest,
  StatusQuery,
} from './sanctions.schemas.js';
import { screeningStatus, screeningView, screenUser } from './sanctions.service.js';

const tags = ['sanctions'];

export function sanctionsRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/sanctions/screen',
      {
        config: { validationErrorCode: 'missing_fields' },
        schema: {
          tags,
          summary: 'Screen a user at signup',
          body: ScreenRequest,
          response: { 200: Screening, 201: Screening, ...errorResponses(400, 409, 503) },
        },
      },
      async (req, reply) => {
        const { screen, created } = await screenUser(platform, req.tenantContext, req.body);
        return reply.code(created ? 201 : 200).send(screeningView(screen));
      },
    );

    app.get(
      '/sanctions/status',
      {
        config: { validationErrorCode: 'missing_fields' },
        schema: {
          tags,
          summary: "A user's current sanctions status",
          querystring: StatusQuery,
          response: { 200: Screening, ...errorResponses(404) },
        },
      },
      async (req) => screeningView(await screeningStatus(platform, req.tenantContext, req.query.user_id)),
    );
  };
}

/** Staff review: the only place matched list entries and per-entity scores appear. */
export function sanctionsBackofficeRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/sanctions/cases',
      {
        schema: {
          querystring: CasesQuery,
          response: { 200: Type.Object({ cases: Type.Array(SanctionsCaseView) }) },
        },
      },
      async (req) => {
        let query = platform.db
          .selectFrom('sanctions_cases')
          .selectAll()
          .orderBy('opened_at', 'desc')
          .orderBy('case_id', 'desc')
          .limit(req.query.limit);
        if (req.query.status) query = query.where('status', '=', req.query.status);
        return { cases: await query.execute() };
      },
    );

    app.get(
      '/sanctions/cases/:case_id',
      { schema: { params: Type.Object({ case_id: Type.String() }), response: { 200: SanctionsCaseView } } },
      async (req) => {
        const found = await platform.db
          .selectFrom('sanctions_cases')
          .selectAll()
          .where('case_id', '=', req.params.case_id)
          .executeTakeFirst();
        if (!found) throw new AppError('case_not_found', 404, `No sanctions case ${req.params.case_id}`);
        return found;
      },
    );

    app.post(
      '/sanctions/cases/:case_id/decision',
      {
        schema: {
          params: Type.Object({ case_id: Type.String() }),
          body: DecisionRequest,
          response: { 200: SanctionsCaseView },
        },
      },
      (req) => decideCase(platform, req.params.case_id, req.body),
    );

    app.post(
      '/sanctions/rescreen',
      { schema: { body: RescreenRequest, response: { 200: RescreenResult } } },
      (req) => platform.db.transaction().execute((tx) => rescreen(platform, tx, req.body.tenant_id)),
    );
  };
}
