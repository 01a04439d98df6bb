import { describe, expect, it } from 'vitest';
import { SmtpInbox } from '../../../test/helpers/smtp-inbox.js';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import type { TestTenant } from '../../../test/helpers/test-service.js';
import { check, told, uniqueEmail, uniquePhone, userId } from '../exclusions/exclusions.test-support.js';
import {
  confirmCode,
  createSession,
  embedApi,
  otherThan,
  requestCode,
  errorBody,
} from './embeds.test-support.js';

/**
 * The self-exclusion embed's two steps through its JSON API, as the page (or an operator's own UI) drives them; the
 * code is read from the mail a real SMTP server received, never from the database.
 */
describe('self-exclusion embed: request and confirm', () => {
  const suite = useSuite(async (own) => {
    const inbox = own(await SmtpInbox.start());
    const d = own(await TenantDriver.start({ config: { smtpUrl: inbox.url }, name: 'Casino Royale' }));
    return { t: d.t, inbox, hook: d.receiver, tenant: d.tenant };
  });

  /** A fresh player's session; their code arrives by mail after `requestAndRead`. */
  async function player(tenant?: TestTenant) {
    const { t } = suite.current;
    const email = uniqueEmail();
    const phone = uniquePhone();
    const user = userId();
    const session = await createSession(t, tenant ?? suite.current.tenant, {
      kind: 'self_exclusion',
      user_id: user,
      email,
      phone,
      locale: 'en-GB',
    });
    return { email, phone, user, ...session };
  }

  async function requestAndRead(token: string, email: string, duration = 'duration_30d') {
    const { t, inbox } = suite.current;
    const response = await requestCode(t, token, duration);
    expect(response.statusCode, response.body).toBe(202);
    await t.deliverWebhooks();
    return { response, code: inbox.latestCode(email.toLowerCase()) };
  }

  const excluded = async (email: string) =>
    (await check(suite.current.t, suite.current.tenant, { email })).json<{ is_excluded: boolean }>()
      .is_excluded;

  it('creates the session: its page URL with a token, and when it expires (15 minutes)', async () => {
    const { t, tenant } = suite.current;
    const response = await t.api(tenant.apiKey, 'POST', '/v1/embeds/sessions', {
      kind: 'self_exclusion',
      user_id: userId(),
      email: uniqueEmail(),
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      embed_session_id: expect.stringMatching(/^emb_/),
      kind: 'self_exclusion',
      url: expect.stringMatching(/^http:\/\/localhost(:\d+)?\/embeds\/[A-Za-z0-9_-]{43}$/),
      expires_at: new Date(t.platform.clock.now().getTime() + 15 * 60_000).toISOString(),
    });
  });

  it('refuses a self-exclusion session without an email, and an unparseable email, with 400 invalid_request', async () => {
    const { t, tenant } = suite.current;
    for (const body of [
      { kind: 'self_exclusion', user_id: userId() },
      { kind: 'self_exclusion', user_id: userId(), email: 'not-an-email' },
      { kind: 'self_exclusion', user_id: userId(), email: uniqueEmail(), return_url: 'javascript:alert(1)' },
    ]) {
      const response = await t.api(tenant.apiKey, 'POST', '/v1/embeds/sessions', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual(errorBody('invalid_request'));
    }
  });

  it('sends the code by mail, and the code creates the exclusion: active in the live check, announced to the tenant', async () => {
    const { t, inbox, hook, tenant } = suite.current;
    const me = await player();
    const now = t.platform.clock.now().getTime();
    const { response, code } = await requestAndRead(me.token, me.email);
    expect(response.json()).toEqual({
      code_expires_at: new Date(now + 10 * 60_000).toISOString(),
      resend_available_at: new Date(now + 60_000).toISOString(),
    });
    const [mail] = inbox.to(me.email.toLowerCase());
    expect(mail!.subject).toBe('Your confirmation code');
    expect(mail!.text).toContain('Casino Royale');
    expect(mail!.html).toContain(code);

    const confirmed = await confirmCode(t, me.token, code);
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    expect(confirmed.json()).toEqual({
      exclusion_id: expect.stringMatching(/^exc_/),
      user_id: me.user,
      duration: 'duration_30d',
      effective_from: new Date(now).toISOString(),
      expires_at: new Date(now + 30 * 86_400_000).toISOString(),
      is_permanent: false,
      regulator_propagated: false,
    });
    expect(await excluded(me.email)).toBe(true);
    await t.deliverWebhooks();
    expect(told(hook, tenant, 'exclusion.created')).toContainEqual(
      expect.objectContaining({ exclusion_id: confirmed.json().exclusion_id, source: 'operator' }),
    );
    // The same exclusion as POST /v1/exclusions makes: the tenant's replay of it is the original (200).
    const replay = await t.api(tenant.apiKey, 'POST', '/v1/exclusions', {
      user_id: me.user,
      duration: 'duration_30d',
      email: me.email,
      phone: me.phone,
    });
    expect(replay.statusCode).toBe(200);
    expect(replay.json().exclusion_id).toBe(confirmed.json().exclusion_id);
    const row = await t.db
      .selectFrom('exclusions')
      .select(['channel', 'origin'])
      .where('exclusion_id', '=', confirmed.json().exclusion_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ channel: 'embed', origin: 'operator' });
  });

  it('refuses the code replayed after success: 409 embed_session_completed, and no second exclusion', async () => {
    const { t } = suite.current;
    const me = await player();
    const { code } = await requestAndRead(me.token, me.email);
    expect((await confirmCode(t, me.token, code)).statusCode).toBe(201);
    const replay = await confirmCode(t, me.token, code);
    expect(replay.statusCode).toBe(409);
    expect(replay.json()).toEqual(errorBody('embed_session_completed'));
    const again = await requestCode(t, me.token, 'duration_permanent');
    expect(again.statusCode).toBe(409);
    const rows = await t.db
      .selectFrom('exclusions')
      .select('duration')
      .where('user_id', '=', me.user)
      .execute();
    expect(rows).toEqual([{ duration: 'duration_30d' }]);
  });

  it('binds the code to the duration chosen at request: confirm cannot change it', async () => {
    const { t } = suite.current;
    const me = await player();
    const { code } = await requestAndRead(me.token, me.email, 'duration_7d');
    const changed = await embedApi(t, 'POST', `${me.token}/confirm`, {
      code,
      duration: 'duration_permanent',
    });
    expect(changed.statusCode).toBe(400);
    expect(changed.json()).toEqual(errorBody('invalid_request'));
    const confirmed = await confirmCode(t, me.token, code);
    expect(confirmed.json()).toMatchObject({ duration: 'duration_7d', is_permanent: false });
  });

  it('answers a wrong code 422 with the attempts left; the fifth voids the code, and then even the right one is refused', async () => {
    const { t } = suite.current;
    const me = await player();
    const { code } = await requestAndRead(me.token, me.email);
    for (const left of [4, 3, 2, 1, 0]) {
      const wrong = await confirmCode(t, me.token, otherThan(code));
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json()).toEqual({ ...errorBody('invalid_code'), attempts_left: left });
    }
    const locked = await confirmCode(t, me.token, code);
    expect(locked.statusCode).toBe(422);
    expect(locked.json()).toEqual(errorBody('code_locked'));
    expect(await excluded(me.email)).toBe(false);

    // A new request, once the resend wait is over, gives a code that works.
    await t.advance(60);
    const fresh = await requestAndRead(me.token, me.email);
    expect((await confirmCode(t, me.token, fresh.code)).statusCode).toBe(201);
    const actions = await t.db
      .selectFrom('audit_log')
      .select('action')
      .where('actor', '=', `embed:${me.embed_session_id}`)
      .orderBy('audit_id')
      .execute();
    expect(actions.map((a) => a.action)).toEqual([
      'embed.code_sent',
      'embed.code_rejected',
      'embed.code_rejected',
      'embed.code_rejected',
      'embed.code_rejected',
      'embed.code_locked',
      'embed.code_resent',
      'exclusion.created',
      'embed.code_confirmed',
    ]);
  });

  it('refuses a code past its 10 minutes with 422 code_expired', async () => {
    const { t } = suite.current;
    const me = await player();
    const { code } = await requestAndRead(me.token, me.email);
    await t.advance(10 * 60);
    const expired = await confirmCode(t, me.token, code);
    expect(expired.statusCode).toBe(422);
    expect(expired.json()).toEqual(errorBody('code_expired'));
    expect(await excluded(me.email)).toBe(false);
  });

  it('refuses an expired session with 401 embed_session_expired, whatever the step', async () => {
    const { t } = suite.current;
    const me = await player();
    const { code } = await requestAndRead(me.token, me.email);
    await t.advance(15 * 60);
    for (const response of [
      await confirmCode(t, me.token, code),
      await requestCode(t, me.token, 'duration_24h'),
    ]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(errorBody('embed_session_expired'));
    }
    expect(await excluded(me.email)).toBe(false);
  });

  it('refuses a new code within 60 seconds of the last (429 with Retry-After); a later one replaces it', async () => {
    const { t, inbox } = suite.current;
    const me = await player();
    const first = await requestAndRead(me.token, me.email);
    await t.advance(45);
    const early = await requestCode(t, me.token, 'duration_30d');
    expect(early.statusCode).toBe(429);
    expect(early.headers['retry-after']).toBe('15');
    expect(early.json()).toEqual({ ...errorBody('resend_too_early'), retry_after_seconds: 15 });
    await t.advance(15);
    const second = await requestAndRead(me.token, me.email);
    expect(inbox.to(me.email.toLowerCase())).toHaveLength(2);
    // The replaced code no longer works (unless the new one happens to be the same six digits).
    if (first.code !== second.code) {
      expect((await confirmCode(t, me.token, first.code)).json()).toMatchObject({ error: 'invalid_code' });
    }
    expect((await confirmCode(t, me.token, second.code)).statusCode).toBe(201);
  });

  it('sends at most 5 codes an hour to one email for one tenant, across its sessions and however the address is written', async () => {
    const { t, tenant } = suite.current;
    const base = `jane.doe.${Date.now().toString(36)}`;
    const variants = [
      `${base}@gmail.com`,
      `${base.replaceAll('.', '')}@gmail.com`,
      `${base}+casino@googlemail.com`,
    ];
    for (let i = 0; i < 5; i++) {
      const session = await createSession(t, tenant, {
        kind: 'self_exclusion',
        user_id: userId(),
        email: variants[i % variants.length],
      });
      expect((await requestCode(t, session.token, 'duration_24h')).statusCode).toBe(202);
      await t.advance(60);
    }
    const sixth = await createSession(t, tenant, {
      kind: 'self_exclusion',
      user_id: userId(),
      email: variants[0],
    });
    const refused = await requestCode(t, sixth.token, 'duration_24h');
    expect(refused.statusCode).toBe(429);
    // The first of the five leaves the hour 3,600 s after it was sent; 300 s have passed since.
    expect(refused.headers['retry-after']).toBe('3300');
    expect(refused.json()).toMatchObject({ error: 'too_many_codes', retry_after_seconds: 3300 });
    await t.advance(3300);
    const later = await createSession(t, tenant, {
      kind: 'self_exclusion',
      user_id: userId(),
      email: variants[1],
    });
    expect((await requestCode(t, later.token, 'duration_24h')).statusCode).toBe(202);
  });

  it('refuses confirm before any code with 409 code_not_requested, and a deposit-limits session with 409', async () => {
    const { t, tenant } = suite.current;
    const me = await player();
    const early = await confirmCode(t, me.token, '123456');
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual(errorBody('code_not_requested'));
    const limits = await createSession(t, tenant, {
      kind: 'deposit_limits',
      user_id: userId(),
      currency: 'EUR',
    });
    const wrongKind = await requestCode(t, limits.token, 'duration_24h');
    expect(wrongKind.statusCode).toBe(409);
    expect(wrongKind.json()).toEqual(errorBody('embed_kind_mismatch'));
  });

  it('refuses a tampered or unknown token with 401 invalid_embed_token, logged without the token', async () => {
    const { t } = suite.current;
    const me = await player();
    const last = me.token.at(-1) === 'A' ? 'B' : 'A';
    for (const token of [`${me.token.slice(0, -1)}${last}`, 'short', `${me.token}x`]) {
      const response = await requestCode(t, token, 'duration_24h');
      expect(response.statusCode, token).toBe(401);
      expect(response.json()).toEqual(errorBody('invalid_embed_token'));
      const logged = await t.db
        .selectFrom('security_log')
        .selectAll()
        .where('request_id', '=', response.json().request_id)
        .executeTakeFirstOrThrow();
      expect(logged).toMatchObject({ reason: 'invalid_embed_token', key_prefix: null });
    }
    expect(await excluded(me.email)).toBe(false);
  });

  it('documents the embeds in the OpenAPI document: the session with the key, the rest with the token alone', async () => {
    const { t } = suite.current;
    const document = (await t.inject({ method: 'GET', url: '/v1/openapi.json' })).json<{
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    }>();
    expect(document.paths['/v1/embeds/sessions']?.post).toEqual(
      expect.objectContaining({ summary: expect.any(String) }),
    );
    expect(document.paths['/v1/embeds/sessions']?.post?.security).toBeUndefined();
    for (const [path, method] of [
      ['/v1/embeds/{token}/request', 'post'],
      ['/v1/embeds/{token}/confirm', 'post'],
      ['/v1/embeds/{token}/limits', 'get'],
      ['/v1/embeds/{token}/limits', 'post'],
      ['/v1/embeds/{token}/limits/{limit_id}', 'delete'],
    ] as const) {
      expect(document.paths[path]?.[method]?.security, `${method} ${path}`).toEqual([]);
    }
  });

  it('keeps answering the retired single-step embed with 410', async () => {
    const { t, tenant } = suite.current;
    const response = await t.api(tenant.apiKey, 'POST', '/v1/exclusions/embed', {});
    expect(response.statusCode).toBe(410);
    expect(response.json()).toEqual(errorBody('endpoint_retired'));
  });
});
