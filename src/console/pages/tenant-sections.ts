import type { listDeliveries } from '../../backoffice/service/webhooks.js';
import { DEFAULT_OVERLAP_HOURS } from '../../backoffice/service/signing-secret.js';
import type { Tenant } from '../../platform/db/platform-tables.js';
import { html, time, type Html } from '../../platform/html.js';
import type { listTenantKeys } from '../../platform/auth.js';

/**
 * A tenant page's keys, webhook and delivery-log sections. `admin` is the anti-forgery field when the member may
 * manage tenants (the forms are shown), false otherwise (the values only).
 */
type Deliveries = Awaited<ReturnType<typeof listDeliveries>>;
type Keys = Awaited<ReturnType<typeof listTenantKeys>>;

/** How many of the latest events the delivery log shows (the back office's API pages further). */
export const DELIVERY_LOG_SIZE = 25;

/** `YYYY-MM-DDTHH:MM` in UTC: what a datetime-local input holds (the page says the time is UTC). */
const localUtc = (at: Date) => at.toISOString().slice(0, 16);

export function keysSection(base: string, keys: Keys, admin: Html | false) {
  return html`<h2>API keys</h2>
    <table>
      <thead>
        <tr>
          <th scope="col">Prefix</th>
          <th scope="col">Role</th>
          <th scope="col">Created</th>
          <th scope="col">Revoked</th>
          ${admin ? html`<th scope="col">Action</th>` : ''}
        </tr>
      </thead>
      <tbody>
        ${keys.map(
          (k) =>
            html`<tr>
              <td><code>${k.key_prefix}</code></td>
              <td>${k.role}</td>
              <td>${time(k.created_at)}</td>
              <td>${time(k.revoked_at)}</td>
              ${
                admin
                  ? html`<td>
                      ${
                        k.revoked_at
                          ? ''
                          : html`<form
                              method="post"
                              action="${base}/keys/${k.key_prefix}/revoke"
                              data-confirm="Revoke key ${k.key_prefix}? Requests with it fail at once."
                            >
                              ${admin}
                              <button type="submit" class="danger">Revoke ${k.key_prefix}</button>
                            </form>`
                      }
                    </td>`
                  : ''
              }
            </tr>`,
        )}
      </tbody>
    </table>
    ${
      admin
        ? html`<form method="post" action="${base}/keys" class="row">
            ${admin}
            <div class="stack">
              <label for="key-role">Role of the new key</label>
              <select id="key-role" name="role">
                <option value="standard">standard</option>
                <option value="admin">admin</option>
              </select>
            </div>
            <button type="submit">Issue a key</button>
          </form>`
        : ''
    }`;
}

export function webhookSection(base: string, tenant: Tenant, admin: Html | false) {
  return html`<h2>Webhook destination</h2>
    <dl class="facts">
      <dt>URL</dt>
      <dd>${tenant.webhook_url ?? html`<span class="muted">None registered</span>`}</dd>
      <dt>Deliveries</dt>
      <dd>
        ${
          tenant.webhook_disabled_at
            ? html`<span class="badge breached">Disabled</span> since ${time(tenant.webhook_disabled_at)}`
            : tenant.webhook_url
              ? html`<span class="badge ok">Enabled</span>`
              : html`<span class="muted">Held until a destination is registered</span>`
        }
      </dd>
    </dl>
    ${
      admin
        ? html`<form method="post" action="${base}/webhook" class="row">
              ${admin}
              <div class="stack">
                <label for="webhook-url">Webhook URL</label>
                <input
                  id="webhook-url"
                  name="url"
                  type="url"
                  required
                  maxlength="2000"
                  value="${tenant.webhook_url ?? ''}"
                />
              </div>
              <button type="submit">Save destination</button>
            </form>
            <div class="row">
              ${
                tenant.webhook_disabled_at
                  ? html`<form method="post" action="${base}/webhook/enable">
                      ${admin}<button type="submit">Enable destination</button>
                    </form>`
                  : ''
              }
              ${
                tenant.webhook_url
                  ? html`<form method="post" action="${base}/webhook/ping">
                      ${admin}<button type="submit" class="secondary">Send a ping</button>
                    </form>`
                  : ''
              }
            </div>
            <h3>Signing secret</h3>
            <form
              method="post"
              action="${base}/signing-secret"
              class="row"
              data-confirm="Rotate the signing secret? The tenant must switch to the new one before the overlap ends."
            >
              ${admin}
              <div class="stack">
                <label for="overlap-hours">Hours the old secret keeps signing</label>
                <input
                  id="overlap-hours"
                  name="overlap_hours"
                  type="number"
                  min="0"
                  max="720"
                  value="${DEFAULT_OVERLAP_HOURS}"
                  required
                />
              </div>
              <button type="submit">Rotate signing secret</button>
            </form>`
        : ''
    }`;
}

export function deliverySection(base: string, deliveries: Deliveries, admin: Html | false, now: Date) {
  return html`<h2>Delivery log</h2>
    <p class="hint">The ${DELIVERY_LOG_SIZE} latest events, newest first.</p>
    <table>
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Created</th>
          <th scope="col">Status</th>
          <th scope="col">Attempts</th>
          <th scope="col">Last attempt</th>
          ${admin ? html`<th scope="col">Action</th>` : ''}
        </tr>
      </thead>
      <tbody>
        ${deliveries.map((d) => {
          const last = d.attempts.at(-1);
          return html`<tr>
            <td>${d.event}<br /><code class="keys">${d.event_id}</code></td>
            <td>${time(d.created_at)}</td>
            <td>${d.delivery_status}</td>
            <td>${d.attempt_count}</td>
            <td>${last ? html`${last.outcome} ${last.status_code ?? last.error ?? ''}` : '—'}</td>
            ${
              admin
                ? html`<td>
                    <form method="post" action="${base}/events/${d.event_id}/redeliver">
                      ${admin}<button type="submit" class="secondary">Redeliver ${d.event_id}</button>
                    </form>
                  </td>`
                : ''
            }
          </tr>`;
        })}
      </tbody>
    </table>
    ${deliveries.length === 0 ? html`<p class="muted">No events yet.</p>` : ''}
    ${
      admin
        ? html`<form method="post" action="${base}/webhook/recover" class="row">
            ${admin}
            <div class="stack">
              <label for="recover-since">Redeliver everything undelivered since (UTC)</label>
              <input
                id="recover-since"
                name="since"
                type="datetime-local"
                required
                value="${localUtc(new Date(now.getTime() - 86_400_000))}"
              />
            </div>
            <button type="submit">Recover deliveries</button>
          </form>`
        : ''
    }`;
}
