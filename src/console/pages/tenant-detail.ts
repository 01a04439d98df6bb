import type { FastifyInstance } from 'fastify';
import { getTenant } from '../../backoffice/service/tenants.js';
import { listDeliveries } from '../../backoffice/service/webhooks.js';
import { amlSettings } from '../../areas/aml/index.js';
import type { Platform, StaffMember } from '../../platform/context.js';
import type { RateLimitBucket, Tenant } from '../../platform/db/platform-tables.js';
import { DEFAULT_RATE_LIMITS } from '../../platform/rate-limit.js';
import { roleMay } from '../../staff/index.js';
import { consoleContext, memberOf } from '../console-auth.js';
import { html, time, type Html } from '../../platform/html.js';
import { csrfField, page } from '../layout.js';
import { listTenantKeys } from '../../platform/auth.js';
import { sendPage } from './respond.js';
import { tenantActions } from './tenant-actions.js';
import { DELIVERY_LOG_SIZE, deliverySection, keysSection, webhookSection } from './tenant-sections.js';

const BUCKETS: readonly RateLimitBucket[] = ['default', 'exclusions', 'aml_event'];
const BUCKET_LABELS: Record<RateLimitBucket, string> = {
  default: 'Requests a minute per key (most routes)',
  exclusions: 'Exclusion requests a minute per key',
  aml_event: 'AML events a minute per key',
};
const AREAS = ['kyc', 'geo', 'sanctions'] as const;

function settingsSection(base: string, tenant: Tenant, r009Hours: number, admin: Html | false) {
  const limits = BUCKETS.map((bucket) => {
    const key = `${bucket}_per_minute` as const;
    return {
      key,
      label: BUCKET_LABELS[bucket],
      value: tenant.rate_limits[key],
      fallback: DEFAULT_RATE_LIMITS[bucket],
    };
  });
  const cutover = html`<h2>Vendor cut-over</h2>
    <p>Production vendors: ${tenant.cutover_areas.length ? tenant.cutover_areas.join(', ') : 'none'}.</p>
    ${
      admin && tenant.environment === 'live'
        ? html`<form method="post" action="${base}/cutover" class="stack">
            ${admin}
            <fieldset>
              <legend>Use the production vendor for</legend>
              ${AREAS.map(
                (area) =>
                  html`<div>
                    <input
                      type="checkbox"
                      id="cutover-${area}"
                      name="area_${area}"
                      value="on"
                      ${tenant.cutover_areas.includes(area) ? html`checked` : ''}
                    />
                    <label for="cutover-${area}">${area}</label>
                  </div>`,
              )}
            </fieldset>
            <button type="submit">Save cut-over</button>
          </form>`
        : admin
          ? html`<p class="hint">Only live tenants are cut over to production vendors.</p>`
          : ''
    }`;
  const embeds = html`<h2>Embed origins</h2>
    <p>
      Sites allowed to frame the tenant's hosted embeds (self-exclusion, deposit limits):
      ${tenant.embed_origins.length ? tenant.embed_origins.join(', ') : 'none, so the embeds cannot be framed'}.
    </p>
    ${
      admin
        ? html`<form method="post" action="${base}/embed-origins" class="stack">
            ${admin}
            <label for="embed-origins">Origins, one a line (https://casino.example)</label>
            <textarea id="embed-origins" name="origins" rows="3">${tenant.embed_origins.join('\n')}</textarea>
            <button type="submit">Save embed origins</button>
          </form>`
        : ''
    }`;
  return html`<h2>Rate limits</h2>
    ${
      admin
        ? html`<form method="post" action="${base}/rate-limits" class="row">
              ${admin}
              ${limits.map(
                (l) =>
                  html`<div class="stack">
                    <label for="${l.key}">${l.label}</label>
                    <input
                      id="${l.key}"
                      name="${l.key}"
                      type="number"
                      min="1"
                      max="1000000"
                      value="${l.value ?? ''}"
                      placeholder="${l.fallback}"
                    />
                  </div>`,
              )}
              <button type="submit">Save rate limits</button>
            </form>
            <p class="hint">A field left empty keeps its current value (the default is shown greyed).</p>`
        : html`<dl class="facts">
            ${limits.map(
              (l) =>
                html`<dt>${l.label}</dt>
                  <dd>${l.value ?? l.fallback}</dd>`,
            )}
          </dl>`
    }
    ${cutover} ${embeds}
    <h2>AML settings</h2>
    ${
      admin
        ? html`<form method="post" action="${base}/aml-settings" class="row">
            ${admin}
            <div class="stack">
              <label for="r009-window">R-009 rolling window (hours, 1 to 720)</label>
              <input
                id="r009-window"
                name="r009_window_hours"
                type="number"
                min="1"
                max="720"
                required
                value="${r009Hours}"
              />
            </div>
            <button type="submit">Save AML settings</button>
          </form>`
        : html`<p>R-009 rolling window: ${r009Hours} hours.</p>`
    }`;
}

function statusSection(base: string, tenant: Tenant, admin: Html | false) {
  if (!admin) return '';
  return tenant.status === 'active'
    ? html`<h2>Suspend</h2>
        <form
          method="post"
          action="${base}/suspend"
          data-confirm="Suspend ${tenant.name}? Every request with its keys is refused until it is reinstated."
        >
          ${admin}<button type="submit" class="danger">Suspend tenant</button>
        </form>`
    : html`<h2>Reinstate</h2>
        <form method="post" action="${base}/reinstate">
          ${admin}<button type="submit">Reinstate tenant</button>
        </form>`;
}

/** One tenant: everything the admins manage about it; read-only for the other roles. */
export function tenantDetailPages(app: FastifyInstance, platform: Platform): void {
  app.get<{ Params: { tenant_id: string }; Querystring: { notice?: string } }>(
    '/console/tenants/:tenant_id',
    { config: { staffAction: 'read' } },
    async (request, reply) => {
      const member: StaffMember = memberOf(request);
      const tenant = await getTenant(platform, request.params.tenant_id);
      const [keys, deliveries, aml] = await Promise.all([
        listTenantKeys(platform.db, tenant.tenant_id),
        listDeliveries(platform, tenant.tenant_id, DELIVERY_LOG_SIZE),
        amlSettings(consoleContext(platform, request), tenant.tenant_id),
      ]);
      // The forms carry the anti-forgery field; a role that may not manage tenants sees the values only.
      const admin = roleMay(member.role, 'manage_tenants') && csrfField(member);
      const base = `/console/tenants/${tenant.tenant_id}`;
      const now = platform.clock.now();
      return sendPage(
        reply,
        page(
          { title: tenant.name, member, current: '/console/tenants', notice: request.query.notice },
          html`<dl class="facts">
              <dt>Tenant ID</dt>
              <dd><code>${tenant.tenant_id}</code></dd>
              <dt>Environment</dt>
              <dd>${tenant.environment}</dd>
              <dt>Status</dt>
              <dd>${tenant.status}</dd>
              <dt>Created</dt>
              <dd>${time(tenant.created_at)}</dd>
            </dl>
            ${keysSection(base, keys, admin)} ${webhookSection(base, tenant, admin)}
            ${deliverySection(base, deliveries, admin, now)}
            ${settingsSection(base, tenant, aml.r009_window_hours, admin)}
            ${statusSection(base, tenant, admin)}`,
        ),
      );
    },
  );

  tenantActions(app, platform);
}
