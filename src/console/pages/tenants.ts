import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { createTenant, listTenants } from '../../backoffice/service/tenants.js';
import type { Platform } from '../../platform/context.js';
import type { Tenant } from '../../platform/db/platform-tables.js';
import { roleMay } from '../../staff/index.js';
import { consoleContext, memberOf } from '../console-auth.js';
import { html, time } from '../../platform/html.js';
import { csrfField, page } from '../layout.js';
import { sendPage } from './respond.js';
import { tenantDetailPages } from './tenant-detail.js';

const CURRENT = '/console/tenants';

function tenantRow(t: Tenant) {
  return html`<tr data-href="/console/tenants/${t.tenant_id}">
    <td><a href="/console/tenants/${t.tenant_id}">${t.name}</a></td>
    <td><code>${t.tenant_id}</code></td>
    <td>${t.environment}</td>
    <td><span class="badge ${t.status === 'active' ? 'ok' : 'breached'}">${t.status}</span></td>
    <td>${t.webhook_url ?? html`<span class="muted">None</span>`}</td>
    <td>
      ${
        t.webhook_disabled_at
          ? html`<span class="badge breached">Disabled</span> since ${time(t.webhook_disabled_at)}`
          : html`<span class="muted">No</span>`
      }
    </td>
  </tr>`;
}

const createForm = (csrf: ReturnType<typeof csrfField>) =>
  html`<h2>Create a tenant</h2>
    <form method="post" action="/console/tenants" class="row">
      ${csrf}
      <div class="stack">
        <label for="tenant-name">Name</label>
        <input id="tenant-name" name="name" required maxlength="200" />
      </div>
      <div class="stack">
        <label for="tenant-environment">Environment</label>
        <select id="tenant-environment" name="environment">
          <option value="sandbox">sandbox</option>
          <option value="live">live</option>
        </select>
      </div>
      <button type="submit">Create tenant</button>
    </form>`;

/** The tenants list and the new-tenant form; each tenant's own page is in tenant-detail.ts. */
export function tenantPages(app: FastifyInstance, platform: Platform): void {
  app.get<{ Querystring: { notice?: string } }>(
    CURRENT,
    { config: { staffAction: 'read' } },
    async (request, reply) => {
      const member = memberOf(request);
      const tenants = await listTenants(platform);
      return sendPage(
        reply,
        page(
          { title: 'Tenants', member, current: CURRENT, notice: request.query.notice },
          html`<table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Tenant ID</th>
                  <th scope="col">Environment</th>
                  <th scope="col">Status</th>
                  <th scope="col">Webhook URL</th>
                  <th scope="col">Destination disabled</th>
                </tr>
              </thead>
              <tbody>
                ${tenants.map(tenantRow)}
              </tbody>
            </table>
            ${tenants.length === 0 ? html`<p class="muted">No tenants yet.</p>` : ''}
            ${roleMay(member.role, 'manage_tenants') ? createForm(csrfField(member)) : ''}`,
        ),
      );
    },
  );

  // The result is rendered, not redirected to: the key and secret must never travel in a URL.
  app.post<{ Body: { name: string; environment: 'sandbox' | 'live' } }>(
    CURRENT,
    {
      config: { staffAction: 'manage_tenants' },
      schema: {
        body: Type.Object({
          name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
          environment: Type.Union([Type.Literal('sandbox'), Type.Literal('live')]),
        }),
      },
    },
    async (request, reply) => {
      const member = memberOf(request);
      const { tenant, apiKey, signingSecret } = await createTenant(
        platform,
        consoleContext(platform, request),
        {
          name: request.body.name.trim(),
          environment: request.body.environment,
        },
      );
      return sendPage(
        reply,
        page(
          { title: 'Tenant created', member, current: CURRENT },
          html`<p>
              <strong>${tenant.name}</strong> (<code>${tenant.tenant_id}</code>, ${tenant.environment}) is
              active.
            </p>
            <p>
              Give the tenant these now. They are shown once: the service keeps only a hash of the key and
              cannot show either again.
            </p>
            <dl class="facts">
              <dt>API key</dt>
              <dd><code class="secret" id="api-key">${apiKey}</code></dd>
              <dt>Webhook signing secret</dt>
              <dd><code class="secret" id="signing-secret">${signingSecret}</code></dd>
            </dl>
            <p><a href="/console/tenants/${tenant.tenant_id}">Go to the tenant</a></p>`,
        ),
      );
    },
  );

  tenantDetailPages(app, platform);
}
