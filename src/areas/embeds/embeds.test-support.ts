import { expect } from 'vitest';
import type { TestService, TestTenant } from '../../../test/helpers/test-service.js';

/** Test drivers for the hosted embeds: the operator's server creates a session; the player's page uses its token. */

export async function createSession(
  t: TestService,
  tenant: TestTenant,
  body: Record<string, unknown>,
): Promise<{ embed_session_id: string; url: string; expires_at: string; token: string }> {
  const response = await t.api(tenant.apiKey, 'POST', '/v1/embeds/sessions', body);
  if (response.statusCode !== 201) throw new Error(`embed session failed: ${response.body}`);
  const session = response.json<{ embed_session_id: string; url: string; expires_at: string }>();
  return { ...session, token: new URL(session.url).pathname.split('/').at(-1)! };
}

/** A call of the embed API as the page (or the operator's own UI) makes it: the token is the only credential. */
export function embedApi(t: TestService, method: 'GET' | 'POST' | 'DELETE', path: string, body?: object) {
  return t.inject({ method, url: `/v1/embeds/${path}`, payload: body });
}

export const requestCode = (t: TestService, token: string, duration: string) =>
  embedApi(t, 'POST', `${token}/request`, { duration });

export const confirmCode = (t: TestService, token: string, code: string) =>
  embedApi(t, 'POST', `${token}/confirm`, { code });

/** A code that is not `code` (the next one round). */
export const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** The spec's error body with this code, as every embed error answers. */
export const errorBody = (error: string) => ({
  error,
  message: expect.any(String),
  request_id: expect.stringMatching(/^req_/),
});
