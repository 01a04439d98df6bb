import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { hashesEqual, issueBackofficeToken } from '../platform/api-keys.js';
import type { Executor } from '../platform/db/database.js';
import { AppError } from '../platform/errors.js';

const SETTING = 'backoffice_token_hash';
const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Resolves the back-office token's hash. A configured token wins; otherwise the stored hash; on the very first
 * start with neither, a token is generated and returned once (only its hash is kept).
 */
export async function ensureBackofficeToken(
  db: Executor,
  configured: string | undefined,
): Promise<{ tokenHash: string; generatedToken?: string }> {
  if (configured) return { tokenHash: hash(configured) };
  const stored = await db
    .selectFrom('service_settings')
    .select('value')
    .where('name', '=', SETTING)
    .executeTakeFirst();
  if (stored) return { tokenHash: stored.value };
  const token = issueBackofficeToken();
  const inserted = await db
    .insertInto('service_settings')
    .values({ name: SETTING, value: hash(token) })
    .onConflict((oc) => oc.column('name').doNothing())
    .returning('value')
    .executeTakeFirst();
  if (inserted) return { tokenHash: inserted.value, generatedToken: token };
  // Another process generated it first.
  const winner = await db
    .selectFrom('service_settings')
    .select('value')
    .where('name', '=', SETTING)
    .executeTakeFirstOrThrow();
  return { tokenHash: winner.value };
}

export function registerBackofficeAuth(scope: FastifyInstance, tokenHash: string): void {
  scope.addHook('onRequest', async (request) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match)
      throw new AppError('missing_credentials', 401, 'Send Authorization: Bearer <back-office token>');
    if (!hashesEqual(hash(match[1]!), tokenHash)) {
      throw new AppError('invalid_credentials', 401, 'The back-office token is not valid');
    }
  });
}
