import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { EmbedOriginsRequest } from '../areas/embeds/index.js';
import { MANIFESTS } from '../manifests.js';
import type { Platform } from '../platform/context.js';
import { listAlerts } from '../platform/alerts.js';
import { Alert } from '../platform/schemas.js';
import { requestStaffContext } from '../platform/service-context.js';
import { registerBackofficeAuth } from './backoffice-auth.js';
import {
  AdvanceClockRequest,
  AuditEntry,
  ClockResponse,
  CreatedTenant,
  CreateTenantRequest,
  CutoverRequest,
  Delivery,
  EnqueuedEvent,
  IssuedKey,
  IssueKeyRequest,
  ListQuery,
  RateLimitsRequest,
  RevokedKey,
  RotatedSigningSecret,
  RotateSigningSecretRequest,
  Tenant,
  TenantParams,
  WebhookRequest,
} from './backoffice.schemas.js';
import { auditLog, serviceAuditLog } from './service/audit-log.js';
import { issueKey, revokeKey } from './service/keys.js';
import { rotateSigningSecret } from './service/signing-secret.js';
import { advanceClock, clockNow } from './service/test-clock.js';
import * as tenants from './service/tenants.js';
import { listDeliveries, pingWebhook, redeliverEvent, setWebhookUrl } from './service/webhooks.js';

export const BACKOFFICE_PREFIX = '/backoffice/v1';

/** The service staff's API under /backoffice/v1: the back-office token, or a staff session by role. */
export function backofficeRoutes(platform: Platform, tokenHash: string): FastifyPluginAsyncTypebox {
  return async (app) => {
    await registerBackofficeAuth(app, platform, tokenHash, BACKOFFICE_PREFIX);
    // The back office's verbs act as 'backoffice', under the request's id.
    const staff = (req: FastifyRequest) => requestStaffContext(platform, req);
    for (const part of MANIFESTS)
      if (part.backofficeRoutes) await app.register(part.backofficeRoutes(platform));

    app.get(
      '/alerts',
      {
        schema: {
          summary: 'What needs a person, newest first',
          querystring: Type.Object({
            limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
            before: Type.Optional(
              Type.String({
                maxLength: 64,
                description: 'The alert_id of the last alert of the previous page',
              }),
            ),
            kind: Type.Optional(Type.String({ maxLength: 64 })),
          }),
          response: { 200: Type.Object({ alerts: Type.Array(Alert) }) },
        },
      },
      async (req) => ({ alerts: await listAlerts(platform.db, req.query) }),
    );

    app.get(
      '/metrics',
      {
        schema: {
          summary:
            "The service's metrics in the Prometheus text format: the same text as GET /metrics on METRICS_PORT (an alias for staff)",
          response: { 200: Type.String() },
        },
      },
      async (_req, reply) => reply.type(platform.metrics.contentType).send(await platform.metrics.text()),
    );

    app.post(
      '/tenants',
      { schema: { body: CreateTenantRequest, response: { 201: CreatedTenant } } },
      async (req, reply) => {
        const { tenant, apiKey, signingSecret } = await tenants.createTenant(platform, staff(req), req.body);
        return reply.code(201).send({ ...tenant, api_key: apiKey, signing_secret: signingSecret });
      },
    );

    app.get(
      '/tenants',
      { schema: { response: { 200: Type.Object({ tenants: Type.Array(Tenant) }) } } },
      async () => ({
        tenants: await tenants.listTenants(platform),
      }),
    );

    app.get('/tenants/:tenant_id', { schema: { params: TenantParams, response: { 200: Tenant } } }, (req) =>
      tenants.getTenant(platform, req.params.tenant_id),
    );

    app.post(
      '/tenants/:tenant_id/keys',
      { schema: { params: TenantParams, body: IssueKeyRequest, response: { 201: IssuedKey } } },
      async (req, reply) =>
        reply.code(201).send(await issueKey(staff(req), req.params.tenant_id, req.body.role)),
    );

    app.post(
      '/keys/:key_prefix/revoke',
      { schema: { params: Type.Object({ key_prefix: Type.String() }), response: { 200: RevokedKey } } },
      (req) => revokeKey(platform, staff(req), req.params.key_prefix),
    );

    app.post(
      '/tenants/:tenant_id/suspend',
      { schema: { params: TenantParams, response: { 200: Tenant } } },
      (req) => tenants.suspendTenant(platform, staff(req), req.params.tenant_id),
    );

    app.post(
      '/tenants/:tenant_id/reinstate',
      { schema: { params: TenantParams, response: { 200: Tenant } } },
      (req) => tenants.reinstateTenant(platform, staff(req), req.params.tenant_id),
    );

    app.put(
      '/tenants/:tenant_id/webhook',
      { schema: { params: TenantParams, body: WebhookRequest, response: { 200: Tenant } } },
      (req) => setWebhookUrl(platform, staff(req), req.params.tenant_id, req.body.url),
    );

    app.post(
      '/tenants/:tenant_id/webhook/ping',
      { schema: { params: TenantParams, response: { 202: EnqueuedEvent } } },
      async (req, reply) => {
        const envelope = await pingWebhook(staff(req), req.params.tenant_id);
        return reply.code(202).send({ event_id: envelope.event_id, delivery_status: 'pending' });
      },
    );

    app.post(
      '/tenants/:tenant_id/signing-secret/rotate',
      {
        schema: {
          params: TenantParams,
          body: RotateSigningSecretRequest,
          response: { 200: RotatedSigningSecret },
        },
        // No body at all is the default overlap, as `{}` is; a JSON null is still refused by the schema.
        preValidation: async (req) => {
          if (req.body === undefined) req.body = {};
        },
      },
      (req) => rotateSigningSecret(platform, staff(req), req.params.tenant_id, req.body?.overlap_hours),
    );

    app.put(
      '/tenants/:tenant_id/cutover',
      { schema: { params: TenantParams, body: CutoverRequest, response: { 200: Tenant } } },
      (req) => tenants.setCutover(platform, staff(req), req.params.tenant_id, req.body.areas),
    );

    app.put(
      '/tenants/:tenant_id/rate-limits',
      { schema: { params: TenantParams, body: RateLimitsRequest, response: { 200: Tenant } } },
      (req) => tenants.setRateLimits(platform, staff(req), req.params.tenant_id, req.body),
    );

    app.put(
      '/tenants/:tenant_id/embed-origins',
      {
        schema: {
          summary: "The origins allowed to frame the tenant's hosted embeds (CSP frame-ancestors)",
          description:
            'Replaces the list; an empty list means no site may frame the embeds. See docs/embeds.md.',
          params: TenantParams,
          body: EmbedOriginsRequest,
          response: { 200: Tenant },
        },
      },
      (req) => tenants.setEmbedOrigins(platform, staff(req), req.params.tenant_id, req.body.origins),
    );

    app.get(
      '/tenants/:tenant_id/webhook-deliveries',
      {
        schema: {
          params: TenantParams,
          querystring: ListQuery,
          response: { 200: Type.Object({ deliveries: Type.Array(Delivery) }) },
        },
      },
      async (req) => ({
        deliveries: await listDeliveries(platform, req.params.tenant_id, req.query.limit),
      }),
    );

    app.post(
      '/events/:event_id/redeliver',
      { schema: { params: Type.Object({ event_id: Type.String() }), response: { 202: EnqueuedEvent } } },
      async (req, reply) =>
        reply.code(202).send(await redeliverEvent(platform, staff(req), req.params.event_id)),
    );

    app.get(
      '/tenants/:tenant_id/audit-log',
      {
        schema: {
          params: TenantParams,
          querystring: ListQuery,
          response: { 200: Type.Object({ entries: Type.Array(AuditEntry) }) },
        },
      },
      async (req) => ({ entries: await auditLog(platform, req.params.tenant_id, req.query.limit) }),
    );

    app.get(
      '/audit-log',
      {
        schema: {
          summary: 'The audit log across tenants, newest first (service-level entries have tenant_id null)',
          querystring: Type.Object({
            limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
            tenant_id: Type.Optional(Type.String({ maxLength: 64 })),
            action: Type.Optional(Type.String({ maxLength: 100 })),
          }),
          response: {
            200: Type.Object({
              entries: Type.Array(
                Type.Object({
                  ...AuditEntry.properties,
                  tenant_id: Type.Union([Type.String(), Type.Null()]),
                }),
              ),
            }),
          },
        },
      },
      async (req) => ({ entries: await serviceAuditLog(platform, req.query) }),
    );

    // The test clock: absent (404) unless the deployment enables it.
    app.get('/clock', { schema: { response: { 200: ClockResponse } } }, async () => clockNow(platform));
    app.post(
      '/clock/advance',
      { schema: { body: AdvanceClockRequest, response: { 200: ClockResponse } } },
      (req) => advanceClock(platform, req.body.seconds),
    );
  };
}
