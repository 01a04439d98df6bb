import { expect } from 'vitest';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
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

/**
 * The limits embed's page as a player's browser without script uses it: a session of the driver's tenant for a fresh
 * player, its page, and its plain form posts.
 */
export class EmbedPageDriver extends TenantDriver {
  /** A limits session for a fresh player (the current one), in `locale`, in euros. */
  async limitsPage(locale = 'en'): Promise<{ user: string; page: string }> {
    const user = this.newUser();
    const session = await createSession(this.t, this.tenant, {
      kind: 'deposit_limits',
      user_id: user,
      currency: 'EUR',
      locale,
    });
    return { user, page: `/embeds/${session.token}` };
  }

  get = (path: string) => this.t.inject({ method: 'GET', url: path });

  post = (path: string, fields: Record<string, string>) =>
    this.t.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });

  /** A limit set through the tenant API for the current player, as the operator's own UI would. */
  setLimit = (body: Record<string, unknown>) =>
    this.api('POST', '/v1/limits', { user_id: this.userId, requested_at: this.now(), ...body });
}

/** The HTML of one section of the limits page (`deposit`, `loss`, `wager`, `play_time`, `time_out`). */
export function section(page: string, id: string): string {
  const start = page.indexOf(`<section id="${id}"`);
  if (start < 0) throw new Error(`no section ${id}`);
  return page.slice(start, page.indexOf('</section>', start));
}
