import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Platform } from '../../platform/context.js';
import { utcLocalInstant } from '../../platform/validation.formats.js';
import { displayNames, findAccountByEmail } from '../../staff/index.js';
import { memberOf } from '../console-auth.js';
import { searchAudit, type AuditFilter } from '../../platform/audit.js';
import { html, time, type Html } from '../../platform/html.js';
import { page } from '../layout.js';
import { sendPage } from './respond.js';

const PAGE_SIZE = 100;

const Text = Type.Optional(Type.String({ maxLength: 200 }));
/** One value of each filter: a repeated parameter is a 400 page, not a guess. */
const AuditQuery = Type.Object({
  actor: Text,
  tenant: Text,
  action: Text,
  from: Text,
  to: Text,
  before: Text,
  notice: Text,
});
type AuditQuery = Static<typeof AuditQuery>;

type Problem = { field: string; message: string };

/** A datetime-local value ("2030-01-01T12:00", no zone) read as UTC, as the form's labels say. */
function utc(value: string | undefined, field: string, problems: Problem[]): Date | undefined {
  if (!value) return undefined;
  const at = utcLocalInstant(value);
  if (!at) {
    problems.push({
      field,
      message: `Enter ${field === 'from' ? 'From' : 'To'} as a date and time that exists, years 0001 to 9999`,
    });
  }
  return at;
}

/** The filter a query asks for; an actor given as an email is the staff member with that email. */
async function filterOf(platform: Platform, query: AuditQuery, problems: Problem[]): Promise<AuditFilter> {
  const trimmed = (v: string | undefined) => v?.trim() || undefined;
  let actor = trimmed(query.actor);
  if (actor?.includes('@')) {
    const account = await findAccountByEmail(platform.db, actor.toLowerCase());
    if (account) actor = account.staff_id;
  }
  const before = query.before && /^\d{1,18}$/.test(query.before) ? Number(query.before) : undefined;
  return {
    actor,
    tenantId: trimmed(query.tenant),
    action: trimmed(query.action),
    from: utc(trimmed(query.from), 'from', problems),
    to: utc(trimmed(query.to), 'to', problems),
    before,
    limit: PAGE_SIZE + 1,
  };
}

function searchForm(query: AuditQuery): Html {
  const field = (name: keyof AuditQuery, label: string, type = 'text', hint?: string) =>
    html`<div class="stack">
      <label for="${name}">${label}</label>
      ${hint ? html`<p class="hint" id="${name}-hint">${hint}</p>` : ''}
      <input
        id="${name}"
        name="${name}"
        type="${type}"
        value="${query[name] ?? ''}"
        ${hint ? html`aria-describedby="${name}-hint"` : ''}
      />
    </div>`;
  return html`<form method="get" action="/console/audit" class="row">
    ${field('actor', 'Actor', 'text', 'Staff id, staff email, key prefix, backoffice or service')}
    ${field('tenant', 'Tenant', 'text', 'Tenant id')}
    ${field('action', 'Action', 'text', 'For example sanctions.decision_proposed')}
    ${field('from', 'From', 'datetime-local', 'UTC')} ${field('to', 'To', 'datetime-local', 'UTC')}
    <button type="submit">Search</button>
  </form>`;
}

type Entry = Awaited<ReturnType<typeof searchAudit>>[number];

function results(entries: Entry[], names: Map<string, string>): Html {
  if (entries.length === 0) return html`<p>No audit entries match.</p>`;
  return html`<table>
    <thead>
      <tr>
        <th scope="col">When</th>
        <th scope="col">Actor</th>
        <th scope="col">Action</th>
        <th scope="col">Tenant</th>
        <th scope="col">Details</th>
        <th scope="col">Request</th>
      </tr>
    </thead>
    <tbody>
      ${entries.map((e) => {
        const name = names.get(e.actor);
        return html`<tr>
          <td>${time(e.occurred_at)}</td>
          <td>${name ? html`${name}<br /><span class="muted">${e.actor}</span>` : e.actor}</td>
          <td>${e.action}</td>
          <td>
            ${
              e.tenant_id
                ? html`<a href="/console/tenants/${e.tenant_id}">${e.tenant_id}</a>`
                : html`<span class="muted">None</span>`
            }
          </td>
          <td><code>${JSON.stringify(e.details)}</code></td>
          <td class="muted">${e.request_id ?? ''}</td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}

/** The search with the same filters: from the newest entry, or continuing below `before`. */
function searchUrl(query: AuditQuery, before?: number): string {
  const params = new URLSearchParams();
  for (const key of ['actor', 'tenant', 'action', 'from', 'to'] as const) {
    if (query[key]) params.set(key, query[key]);
  }
  if (before !== undefined) params.set('before', String(before));
  const search = params.toString();
  return search ? `/console/audit?${search}` : '/console/audit';
}

/** The audit log across tenants, newest first, searched by actor, tenant, action and time. */
export function auditPages(app: FastifyInstance, platform: Platform): void {
  app.get<{ Querystring: AuditQuery }>(
    '/console/audit',
    { config: { staffAction: 'read' }, schema: { querystring: AuditQuery } },
    async (request, reply) => {
      const member = memberOf(request);
      const query = request.query;
      const problems: Problem[] = [];
      const filter = await filterOf(platform, query, problems);
      const found = problems.length ? [] : await searchAudit(platform.db, filter);
      const entries = found.slice(0, PAGE_SIZE);
      const names = await displayNames(
        platform.db,
        entries.map((e) => e.actor),
      );
      const body = html`${searchForm(query)} ${problems.length ? '' : results(entries, names)}
        <p class="row">
          ${filter.before !== undefined ? html`<a href="${searchUrl(query)}">Newest entries</a>` : ''}
          ${
            found.length > PAGE_SIZE
              ? html`<a rel="next" href="${searchUrl(query, entries.at(-1)!.audit_id)}">Older entries</a>`
              : ''
          }
        </p>`;
      return sendPage(
        reply,
        page(
          {
            title: 'Audit log',
            member,
            current: '/console/audit',
            errors: problems,
            notice: query.notice,
          },
          body,
        ),
        problems.length ? 400 : 200,
      );
    },
  );
}
