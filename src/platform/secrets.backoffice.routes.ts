import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { Platform } from './context.js';
import { secretsKeyStatus } from './key-rotation.js';

export const SecretsKeyStatus = Type.Object({
  current_key_id: Type.String({
    description: 'The id of COMPLIANCE_SECRETS_KEY: every new value is sealed under it',
  }),
  previous_key_ids: Type.Array(Type.String(), { description: 'The ids of COMPLIANCE_SECRETS_OLD_KEYS' }),
  stored: Type.Array(
    Type.Object({
      table: Type.String(),
      column: Type.String(),
      format: Type.Union([Type.Literal('enc:v2'), Type.Literal('enc:v1'), Type.Literal('plaintext')]),
      key_id: Type.Union([Type.String(), Type.Null()], { description: 'The master key of enc:v2 values' }),
      values: Type.Integer(),
    }),
    { description: 'How many stored values each column holds, by format and key' },
  ),
  values_to_reencrypt: Type.Integer({
    description: 'Values not yet under the current key: at 0, the previous keys can be removed',
  }),
});
export type SecretsKeyStatus = Static<typeof SecretsKeyStatus>;

/** The master keys and where the stored values stand: the progress of a rotation (docs/operations.md). */
export function secretsBackofficeRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/secrets/keys',
      {
        schema: {
          summary: 'The master keys by id, and how many stored values are under each',
          response: { 200: SecretsKeyStatus },
        },
      },
      () => secretsKeyStatus(platform),
    );
  };
}
