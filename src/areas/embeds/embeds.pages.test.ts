import { describe, expect, it } from 'vitest';
import { SmtpInbox } from '../../../test/helpers/smtp-inbox.js';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import type { TestTenant } from '../../../test/helpers/test-service.js';
import { check, uniqueEmail, userId } from '../exclusions/exclusions.test-support.js';
import { createSession, embedApi } from './embeds.test-support.js';
import { escapeHtml } from '../../platform/html.js';
import { parseAmount } from './pages/limit-section.js';
import { MESSAGES } from './locales/index.js';

/**
 * The embeds' pages as a browser without script uses them: plain form posts, answered with pages (or a redirect to
 * the next step). What each page answers, and the headers that keep it framed only where the tenant allows.
 */
describe('embed pages without script', () => {
  const suite = useSuite(async (own) => {
    const inbox = own(await SmtpInbox.start());
    const d = own(await TenantDriver.start({ config: { smtpUrl: inbox.url }, name: 'Casino Royale' }));
    return { t: d.t, inbox, tenant: d.tenant };
  });

  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const post = (path: string, fields: Record<string, string>) =>
    suite.current.t.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form(fields),
    });
  const get = (path: string) => suite.current.t.inject({ method: 'GET', url: path });
  const heading = (body: string) => /<h1>([^<]*)<\/h1>/.exec(body)?.[1];

  async function session(tenant: TestTenant, body: Record<string, unknown>) {
    const created = await createSession(suite.current.t, tenant, body);
    return { ...created, page: `/embeds/${created.token}` };
  }

  it('frames only for the registered origins (none: not at all), sends no referrer and is never cached', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const s = await session(tenant, { kind: 'self_exclusion', user_id: userId(), email: uniqueEmail() });
    const before = await get(s.page);
    expect(before.statusCode).toBe(200);
    expect(before.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(before.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(before.headers['content-security-policy']).toContain("script-src 'self'");
    expect(before.headers['referrer-policy']).toBe('no-referrer');
    expect(before.headers['cache-control']).toBe('no-store');

    const set = await t.backoffice('PUT', `/tenants/${tenant.tenantId}/embed-origins`, {
      origins: ['https://www.casino.example', 'https://casino.example:8443', 'https://www.casino.example/'],
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().embed_origins).toEqual(['https://casino.example:8443', 'https://www.casino.example']);
    const after = await get(s.page);
    expect(after.headers['content-security-policy']).toMatch(
      /frame-ancestors https:\/\/casino\.example:8443 https:\/\/www\.casino\.example$/,
    );
    const audit = await t.backoffice('GET', `/tenants/${tenant.tenantId}/audit-log`);
    expect(audit.json().entries).toContainEqual(
      expect.objectContaining({ action: 'embed_origins.changed', actor: 'backoffice' }),
    );
  });

  it('refuses what is not an origin: a path, a query, a wildcard, another scheme', async () => {
    const { t, tenant } = suite.current;
    for (const origin of [
      'https://casino.example/embeds',
      'https://casino.example?x=1',
      'https://*.casino.example',
      'ftp://casino.example',
      'casino.example',
    ]) {
      const response = await t.backoffice('PUT', `/tenants/${tenant.tenantId}/embed-origins`, {
        origins: [origin],
      });
      expect(response.statusCode, origin).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('asks a second, explicit confirmation of a permanent exclusion, then sends the code, which excludes the player', async () => {
    const { inbox, tenant } = suite.current;
    const email = uniqueEmail().toLowerCase();
    const s = await session(tenant, { kind: 'self_exclusion', user_id: userId(), email, locale: 'fr-FR' });

    const nothing = await post(`${s.page}/request`, {});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.body).toContain('href="#duration"');

    const asked = await post(`${s.page}/request`, { duration: 'duration_permanent' });
    expect(asked.statusCode).toBe(200);
    expect(heading(asked.body)).toBe('Vous exclure définitivement ?');
    expect(await inbox.to(email)).toHaveLength(0);

    const unticked = await post(`${s.page}/request`, { duration: 'duration_permanent', step: 'permanent' });
    expect(unticked.statusCode).toBe(400);
    expect(unticked.body).toContain('href="#confirm_permanent"');

    const sent = await post(`${s.page}/request`, {
      duration: 'duration_permanent',
      step: 'permanent',
      confirm_permanent: 'yes',
    });
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe(s.page);
    const codeStep = await get(s.page);
    expect(heading(codeStep.body)).toBe('Consultez vos e-mails');
    await suite.current.t.deliverWebhooks();
    const code = inbox.latestCode(email);

    const malformed = await post(`${s.page}/confirm`, { code: '12' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain('href="#code"');
    const wrong = await post(`${s.page}/confirm`, {
      code: String((Number(code) + 1) % 1_000_000).padStart(6, '0'),
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.body).toContain(escapeHtml(MESSAGES.fr.errors.wrongCode(4)));
    const right = await post(`${s.page}/confirm`, { code: code.replace(/(\d{3})/, '$1 ') });
    expect(right.statusCode).toBe(303);
    const done = await get(s.page);
    expect(heading(done.body)).toBe('Votre exclusion est en place');
    expect(done.body).toContain('data-message=');
    expect((await check(suite.current.t, tenant, { email })).json()).toMatchObject({
      is_excluded: true,
      is_permanent: true,
    });
  });

  it('answers an unknown token with a page that says so, counted as a failed authentication', async () => {
    const { t } = suite.current;
    const response = await get(`/embeds/${'x'.repeat(43)}`);
    expect(response.statusCode).toBe(401);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('This page is not available');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const logged = await t.db
      .selectFrom('security_log')
      .select('reason')
      .where('request_id', '=', response.headers['x-request-id'] as string)
      .execute();
    expect(logged).toEqual([{ reason: 'invalid_embed_token' }]);
  });

  it("says an expired session has expired, in the player's language", async () => {
    const { t, tenant } = suite.current;
    const s = await session(tenant, {
      kind: 'deposit_limits',
      user_id: userId(),
      currency: 'SEK',
      locale: 'sv',
    });
    await t.advance(15 * 60);
    const response = await get(s.page);
    expect(response.statusCode).toBe(401);
    expect(response.body).toContain('<html lang="sv">');
    expect(response.body).toContain('Casino Royale');
  });

  it('takes amounts as players type them, in either decimal style, and refuses what is not one', async () => {
    const { tenant } = suite.current;
    const s = await session(tenant, {
      kind: 'deposit_limits',
      user_id: userId(),
      currency: 'EUR',
      locale: 'de',
    });
    const bad = await post(`${s.page}/limits`, { limit_type: 'limit_daily', amount: 'zehn' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('href="#deposit-amount"');
    const good = await post(`${s.page}/limits`, { limit_type: 'limit_daily', amount: '1.000,50' });
    expect(good.statusCode).toBe(200);
    expect(good.body).toContain('role="status"');
    const limits = await embedApi(suite.current.t, 'GET', `${s.token}/limits`);
    expect(limits.json().limits[0]).toMatchObject({ amount_cents: 100_050, currency: 'EUR' });
  });

  it("parses amounts in the currency's own decimals", () => {
    expect(parseAmount('250', 'EUR')).toBe(25_000);
    expect(parseAmount('250.5', 'EUR')).toBe(25_050);
    expect(parseAmount('250,50', 'EUR')).toBe(25_050);
    expect(parseAmount('1 000,50', 'EUR')).toBe(100_050);
    expect(parseAmount('1,000.50', 'USD')).toBe(100_050);
    expect(parseAmount('1.000', 'EUR')).toBe(100_000);
    expect(parseAmount('5000', 'JPY')).toBe(5_000);
    for (const bad of ['', '0', '-5', 'ten', '1e5', '250.50.1x'])
      expect(parseAmount(bad, 'EUR'), bad).toBeUndefined();
  });

  it("serves the loader for operators' pages, cacheable and loadable from any origin", async () => {
    const response = await get('/embed.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(response.body).toContain('data-compliance-embed');
  });
});
