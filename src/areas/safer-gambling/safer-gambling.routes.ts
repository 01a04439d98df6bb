import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import {
  Interaction,
  PlayerParams,
  RecordInteractionRequest,
  SaferGamblingView,
} from './safer-gambling.schemas.js';
import { saferGamblingView } from './service/player-view.js';
import { recordInteraction } from './service/record-interaction.js';

// Safer gambling draws on the default rate-limit bucket, as the player status does.
const tags = ['safer-gambling'];

/** The safer-gambling area of the tenant API, mounted under /v1 after authentication and rate limits. */
export function saferGamblingRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/players/:user_id/interactions',
      {
        schema: {
          tags,
          summary: 'Record an interaction with a player (what the operator did, and its outcome)',
          description:
            'Settles the interaction owed and reviews the markers active now: a reviewed marker does not raise the level again for 30 days unless it trips with a higher measured value. no_response keeps the interaction due and reviews nothing; contested settles it but keeps the markers and flags the player for the service staff. 201 with the stored interaction; the same interaction_id and request again is 200 with it, another request under it 409 duplicate_interaction.',
          params: PlayerParams,
          body: RecordInteractionRequest,
          response: { 200: Interaction, 201: Interaction, ...errorResponses(400, 401, 409, 429) },
        },
      },
      async (req, reply) => {
        const { interaction, created } = await recordInteraction(
          platform,
          req.tenantContext,
          req.params.user_id,
          req.body,
        );
        return reply.code(created ? 201 : 200).send(interaction);
      },
    );

    app.get(
      '/players/:user_id/safer-gambling',
      {
        schema: {
          tags,
          summary:
            "A player's safer-gambling standing: level, markers, what is owed, interactions, financial checks",
          description:
            'The markers active and reviewed, each with what it measured against which threshold; the interaction owed (interaction_due_at, overdue or not), whether a finding is contested, the interactions newest first and the financial checks called for. A player never seen is at risk_level none with empty lists.',
          params: PlayerParams,
          response: { 200: SaferGamblingView, ...errorResponses(400, 401, 429) },
        },
      },
      (req) => saferGamblingView(req.tenantContext, req.params.user_id),
    );
  };
}
