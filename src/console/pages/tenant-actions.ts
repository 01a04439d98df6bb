import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type TProperties } from 'typebox';
import { findEventTenant } from '../../backoffice/backoffice.store.js';
import { issueKey, revokeKey } from '../../backoffice/service/keys.js';
import { rotateSigningSecret } from '../../backoffice/service/signing-secret.js';
import * as tenants from '../../backoffice/service/tenants.js';
import { pingWebhook, redeliverEvent, setWebhookUrl } from '../../backoffice/service/webhooks.js';
import { setR009Window } from '../../areas/aml/index.js';
import type { Platform } from '../../platform/context.js';
import type { RateLimitOverrides, VendorArea } from '../../platform/db/platform-tables.js';
import { AppError } from '../../platform/errors.js';
import { utcMinute } from '../../platform/utc-calendar.js';
import { utcLocalInstant } from '../../platform/validation.formats.js';
import { enableDestination, redeliverSince } from '../../platform/webhooks/recovery.js';
import { consoleContext, memberOf } from '../console-auth.js';
import { html, time } from '../../platform/html.js';
import { page } from '../layout.js';
import { listTenantKeys } from '../../platform/auth.js';
import { redirectWithNotice, sendPage } from './respond.js';

type Params = { tenant_id: string };
type Req<B = Record<string, string>, P = Params> = FastifyRequest<{ Params: P; Body: B }>;

const manage = { config: { staffAction: 'manage_tenants' as const } };
const withBody = (body: TProperties) => ({
  ...manage,
  schema: { body: Type.Object(body) },
});
const digits = (max: number) => Type.String({ pattern: '^[0-9]{0,' + max + '}$' });
const base = (tenantId: string) => `/console/tenants/${tenantId}`;
const events = (n: number) => (n === 1 ? '1 event' : `${n} events`);

/** A datetime-local value ("2030-01-01T12:00", seconds optional) read as UTC, as the form says. */
function parseUtc(value: string): Date {
  const at = utcLocalInstant(value);
  if (!at) {
    throw new AppError(
      'invalid_request',
      'Enter the time as a date and time that exists, years 0001 to 9999',
    );
  }
  return at;
}

/** The admins' changes to a tenant: each calls the back office's verb, as the member of staff. */
export function tenantActions(app: FastifyInstance, platform: Platform): void {
  const ctx = (request: FastifyRequest) => consoleContext(platform, request);

  // Rendered, not redirected to: a key in clear must never travel in a URL.
  app.post(
    '/console/tenants/:tenant_id/keys',
    withBody({ role: Type.Union([Type.Literal('standard'), Type.Literal('admin')]) }),
    async (request: Req<{ role: 'standard' | 'admin' }>, reply) => {
      const { tenant_id } = request.params;
      const issued = await issueKey(ctx(request), tenant_id, request.body.role);
      return sendPage(
        reply,
        page(
          { title: 'Key issued', member: memberOf(request), current: '/console/tenants' },
          html`<p>A ${issued.role} key for <code>${tenant_id}</code>. It is shown once: copy it now.</p>
            <p><code class="secret" id="api-key">${issued.api_key}</code></p>
            <p><a href="${base(tenant_id)}">Back to the tenant</a></p>`,
        ),
      );
    },
  );

  app.post(
    '/console/tenants/:tenant_id/keys/:key_prefix/revoke',
    manage,
    async (request: Req<unknown, Params & { key_prefix: string }>, reply) => {
      const { tenant_id, key_prefix } = request.params;
      // The prefix names a key of any tenant: only one of the tenant on the page is revoked from it.
      const keys = await listTenantKeys(platform.db, tenant_id);
      if (!keys.some((k) => k.key_prefix === key_prefix))
        throw new AppError('key_not_found', `No API key ${key_prefix} for this tenant`);
      await revokeKey(platform, ctx(request), key_prefix);
      return redirectWithNotice(reply, base(tenant_id), `Key ${key_prefix} revoked`);
    },
  );

  app.post(
    '/console/tenants/:tenant_id/webhook',
    withBody({ url: Type.String({ minLength: 1, maxLength: 2000 }) }),
    async (request: Req<{ url: string }>, reply) => {
      const tenant = await setWebhookUrl(
        platform,
        ctx(request),
        request.params.tenant_id,
        request.body.url.trim(),
      );
      return redirectWithNotice(
        reply,
        base(tenant.tenant_id),
        `Webhook destination set to ${tenant.webhook_url}`,
      );
    },
  );

  app.post('/console/tenants/:tenant_id/webhook/enable', manage, async (request: Req, reply) => {
    const { requeued } = await enableDestination(ctx(request), request.params.tenant_id);
    return redirectWithNotice(
      reply,
      base(request.params.tenant_id),
      `Destination enabled; ${events(requeued)} queued again`,
    );
  });

  app.post('/console/tenants/:tenant_id/webhook/ping', manage, async (request: Req, reply) => {
    const envelope = await pingWebhook(ctx(request), request.params.tenant_id);
    return redirectWithNotice(reply, base(request.params.tenant_id), `Ping ${envelope.event_id} queued`);
  });

  app.post(
    '/console/tenants/:tenant_id/webhook/recover',
    withBody({ since: Type.String({ minLength: 1, maxLength: 40 }) }),
    async (request: Req<{ since: string }>, reply) => {
      const { requeued, since } = await redeliverSince(
        ctx(request),
        request.params.tenant_id,
        parseUtc(request.body.since),
      );
      return redirectWithNotice(
        reply,
        base(request.params.tenant_id),
        `${events(requeued)} since ${utcMinute(since)} queued again`,
      );
    },
  );

  app.post(
    '/console/tenants/:tenant_id/events/:event_id/redeliver',
    manage,
    async (request: Req<unknown, Params & { event_id: string }>, reply) => {
      const { tenant_id, event_id } = request.params;
      // An event id names an event of any tenant: only one of the tenant on the page is sent again from it.
      if ((await findEventTenant(platform.db, event_id))?.tenant_id !== tenant_id)
        throw new AppError('event_not_found', `No event ${event_id} for this tenant`);
      await redeliverEvent(platform, ctx(request), event_id);
      return redirectWithNotice(
        reply,
        base(request.params.tenant_id),
        `Event ${request.params.event_id} queued again`,
      );
    },
  );

  // Rendered, not redirected to: the new secret is shown once.
  app.post(
    '/console/tenants/:tenant_id/signing-secret',
    withBody({ overlap_hours: digits(3) }),
    async (request: Req<{ overlap_hours: string }>, reply) => {
      const hours = Number(request.body.overlap_hours || '24');
      if (hours > 720) throw new AppError('invalid_request', 'The overlap is at most 720 hours');
      const rotated = await rotateSigningSecret(platform, ctx(request), request.params.tenant_id, hours);
      return sendPage(
        reply,
        page(
          { title: 'Signing secret rotated', member: memberOf(request), current: '/console/tenants' },
          html`<p>
              The new signing secret for <code>${rotated.tenant_id}</code>. It is shown once: copy it now.
            </p>
            <p><code class="secret" id="signing-secret">${rotated.signing_secret}</code></p>
            <p>
              ${
                rotated.previous_secret_expires_at
                  ? html`The old secret keeps signing beside it until
                    ${time(rotated.previous_secret_expires_at)}.`
                  : 'The old secret stopped signing at once.'
              }
            </p>
            <p><a href="${base(rotated.tenant_id)}">Back to the tenant</a></p>`,
        ),
      );
    },
  );

  app.post(
    '/console/tenants/:tenant_id/rate-limits',
    withBody({
      default_per_minute: Type.Optional(digits(7)),
      exclusions_per_minute: Type.Optional(digits(7)),
      aml_event_per_minute: Type.Optional(digits(7)),
    }),
    async (request: Req<Record<string, string | undefined>>, reply) => {
      const overrides: RateLimitOverrides = {};
      for (const key of ['default_per_minute', 'exclusions_per_minute', 'aml_event_per_minute'] as const) {
        const value = request.body[key];
        if (!value) continue;
        const n = Number(value);
        if (n < 1 || n > 1_000_000)
          throw new AppError('invalid_request', 'A limit is 1 to 1,000,000 a minute');
        overrides[key] = n;
      }
      if (Object.keys(overrides).length === 0)
        throw new AppError('invalid_request', 'Enter at least one limit');
      await tenants.setRateLimits(platform, ctx(request), request.params.tenant_id, overrides);
      return redirectWithNotice(reply, base(request.params.tenant_id), 'Rate limits saved');
    },
  );

  app.post('/console/tenants/:tenant_id/cutover', manage, async (request: Req, reply) => {
    const body = request.body ?? {};
    const areas = (['kyc', 'geo', 'sanctions'] as VendorArea[]).filter(
      (area) => body[`area_${area}`] === 'on',
    );
    const tenant = await tenants.setCutover(platform, ctx(request), request.params.tenant_id, areas);
    const now = tenant.cutover_areas.length ? tenant.cutover_areas.join(', ') : 'none';
    return redirectWithNotice(reply, base(tenant.tenant_id), `Production vendors: ${now}`);
  });

  app.post(
    '/console/tenants/:tenant_id/aml-settings',
    withBody({ r009_window_hours: Type.String({ pattern: '^[0-9]{1,3}$' }) }),
    async (request: Req<{ r009_window_hours: string }>, reply) => {
      const hours = Number(request.body.r009_window_hours);
      if (hours < 1 || hours > 720) throw new AppError('invalid_request', 'The window is 1 to 720 hours');
      await setR009Window(ctx(request), request.params.tenant_id, hours);
      return redirectWithNotice(reply, base(request.params.tenant_id), `R-009 window set to ${hours} hours`);
    },
  );

  app.post(
    '/console/tenants/:tenant_id/embed-origins',
    withBody({ origins: Type.String({ maxLength: 8000 }) }),
    async (request: Req<{ origins: string }>, reply) => {
      const origins = request.body.origins.split(/\s+/).filter(Boolean);
      const tenant = await tenants.setEmbedOrigins(platform, ctx(request), request.params.tenant_id, origins);
      const now = tenant.embed_origins.length
        ? tenant.embed_origins.join(', ')
        : 'none (embeds cannot be framed)';
      return redirectWithNotice(reply, base(tenant.tenant_id), `Embed origins: ${now}`);
    },
  );

  app.post('/console/tenants/:tenant_id/suspend', manage, async (request: Req, reply) => {
    await tenants.suspendTenant(platform, ctx(request), request.params.tenant_id);
    return redirectWithNotice(reply, base(request.params.tenant_id), 'Tenant suspended');
  });

  app.post('/console/tenants/:tenant_id/reinstate', manage, async (request: Req, reply) => {
    await tenants.reinstateTenant(platform, ctx(request), request.params.tenant_id);
    return redirectWithNotice(reply, base(request.params.tenant_id), 'Tenant reinstated');
  });
}
