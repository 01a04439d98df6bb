import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { staffCases } from '../../areas/aml/index.js';
import { AWAITING_REVIEW_STATUSES, type AmlCaseStatus } from '../../areas/aml/index.js';
import { listReviews } from '../../areas/kyc/index.js';
import { REVIEW_DUE_AFTER_SECONDS, type KycStatus } from '../../areas/kyc/index.js';
import { listCases } from '../../areas/sanctions/index.js';
import type { SanctionsCaseStatus } from '../../areas/sanctions/index.js';
import type { Platform } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import * as fourEyes from '../../platform/four-eyes.js';
import type { ReviewQueue } from '../../platform/review-deadlines.js';
import { CASE_SUBJECTS } from '../../staff/index.js';
import { addNote, takeCase } from '../../staff/index.js';
import * as staffStore from '../../staff/staff.store.js';
import { consoleContext, memberOf } from '../console-auth.js';
import { html, time } from '../../platform/html.js';
import { page } from '../layout.js';
import { casePath, slaBadge } from './case-parts.js';
import { redirectWithNotice, sendPage } from './respond.js';

/** One page of a queue; the listing verbs sort oldest due first and continue by cursor. */
const PAGE_SIZE = 50;

interface QueueRow {
  id: string;
  tenant_id: string;
  user_id: string;
  status: string;
  opened_at: Date;
  due_at: Date;
  breached: boolean;
  awaiting: boolean;
}

interface QueueFilter {
  tenant_id: string | undefined;
  /** A status, or undefined for any. */
  status: string | undefined;
  assignee: staffStore.AssigneeFilter | undefined;
  /** Only cases awaiting review at or past their due time. */
  overdue: true | undefined;
  cursor: string | undefined;
}

interface QueueDefinition {
  subject: ReviewQueue;
  title: string;
  statuses: readonly string[];
  list(
    platform: Platform,
    request: FastifyRequest,
    filter: QueueFilter,
  ): Promise<{ rows: QueueRow[]; next: string | null }>;
}

/** The first status choice of every queue: what still waits on a reviewer. */
const AWAITING = 'awaiting';
const ANY = 'any';

const QUEUES: QueueDefinition[] = [
  {
    subject: 'sanctions',
    title: 'Sanctions hits',
    statuses: ['hit_review_pending', 'cleared', 'confirmed'],
    async list(platform, request, f) {
      const page = await listCases(consoleContext(platform, request), {
        limit: PAGE_SIZE,
        tenant_id: f.tenant_id,
        status: (f.status === AWAITING ? 'hit_review_pending' : f.status) as SanctionsCaseStatus | undefined,
        cursor: f.cursor,
        assignee: f.assignee,
        overdue: f.overdue,
      });
      const rows = page.cases.map((c) => ({
        id: c.case_id,
        tenant_id: c.tenant_id,
        user_id: c.user_id,
        status: c.status,
        opened_at: c.opened_at,
        due_at: c.due_at,
        breached: c.sla_breached,
        awaiting: c.status === 'hit_review_pending',
      }));
      return { rows, next: page.next_cursor };
    },
  },
  {
    subject: 'aml',
    title: 'AML cases',
    statuses: ['under_review', 'held', 'escalated', 'cleared', 'frozen'],
    async list(platform, request, f) {
      const page = await staffCases(consoleContext(platform, request), {
        limit: PAGE_SIZE,
        tenant_id: f.tenant_id,
        status: f.status === AWAITING ? undefined : (f.status as AmlCaseStatus | undefined),
        statuses: f.status === AWAITING ? AWAITING_REVIEW_STATUSES : undefined,
        cursor: f.cursor,
        assignee: f.assignee,
        overdue: f.overdue,
      });
      const awaiting = (s: AmlCaseStatus) => (AWAITING_REVIEW_STATUSES as readonly string[]).includes(s);
      const rows = page.cases.map((c) => ({
        id: c.case_id,
        tenant_id: c.tenant_id,
        user_id: c.user_id,
        status: c.status,
        opened_at: c.opened_at,
        due_at: c.due_at,
        breached: c.sla_breached,
        awaiting: awaiting(c.status),
      }));
      return { rows, next: page.next_cursor };
    },
  },
  {
    subject: 'kyc',
    title: 'KYC reviews',
    statuses: ['pending_review', 'approved', 'rejected', 'expired'],
    async list(platform, _request, f) {
      const page = await listReviews(platform, {
        limit: PAGE_SIZE,
        tenant_id: f.tenant_id,
        status: (f.status === AWAITING ? 'pending_review' : f.status) as KycStatus | undefined,
        cursor: f.cursor,
        assignee: f.assignee,
        overdue: f.overdue,
      });
      const rows = page.reviews.map((c) => {
        const due = new Date(c.due_at);
        return {
          id: c.kyc_check_id,
          tenant_id: c.tenant_id,
          user_id: c.user_id,
          status: c.status,
          // Submitted for review: the due time less the review SLA.
          opened_at: new Date(due.getTime() - REVIEW_DUE_AFTER_SECONDS * 1000),
          due_at: due,
          breached: c.sla_breached,
          awaiting: c.status === 'pending_review',
        };
      });
      return { rows, next: page.next_cursor };
    },
  },
];

const QueueQuery = Type.Object({
  tenant_id: Type.Optional(Type.String({ maxLength: 64 })),
  status: Type.Optional(Type.String({ maxLength: 40 })),
  assignee: Type.Optional(Type.Union([Type.Literal(''), Type.Literal('me'), Type.Literal('unassigned')])),
  overdue: Type.Optional(Type.Literal('true')),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
  notice: Type.Optional(Type.String({ maxLength: 300 })),
});
type QueueQuery = {
  tenant_id?: string;
  status?: string;
  assignee?: '' | 'me' | 'unassigned';
  overdue?: 'true';
  cursor?: string;
  notice?: string;
};

const statusLabel = (s: string) => s.replace(/_/g, ' ');

function filterForm(q: QueueDefinition, query: QueueQuery, status: string) {
  const option = (value: string, label: string, current: string) =>
    html`<option value="${value}" ${value === current ? html`selected` : ''}>${label}</option>`;
  return html`<form method="get" action="/console/queues/${q.subject}" class="row">
    <div class="stack">
      <label for="tenant_id">Tenant</label>
      <input id="tenant_id" name="tenant_id" value="${query.tenant_id ?? ''}" />
    </div>
    <div class="stack">
      <label for="status">Status</label>
      <select id="status" name="status">
        ${option(AWAITING, 'Awaiting review', status)}
        ${q.statuses.map((s) => option(s, statusLabel(s), status))} ${option(ANY, 'Any status', status)}
      </select>
    </div>
    <div class="stack">
      <label for="assignee">Assignee</label>
      <select id="assignee" name="assignee">
        ${option('', 'Anyone', query.assignee ?? '')} ${option('me', 'Me', query.assignee ?? '')}
        ${option('unassigned', 'Unassigned', query.assignee ?? '')}
      </select>
    </div>
    <div class="stack">
      <label for="overdue">Overdue only</label>
      <input id="overdue" name="overdue" type="checkbox" value="true" ${query.overdue ? html`checked` : ''} />
    </div>
    <button type="submit" class="secondary">Filter</button>
  </form>`;
}

/** The work queues (oldest due first) and the case work every queue shares: take and notes. */
export function queuePages(app: FastifyInstance, platform: Platform): void {
  for (const q of QUEUES) {
    app.get<{ Querystring: QueueQuery }>(
      `/console/queues/${q.subject}`,
      { config: { staffAction: 'read' }, schema: { querystring: QueueQuery } },
      async (request, reply) => {
        const member = memberOf(request);
        const query = request.query;
        const status = query.status || AWAITING;
        if (status !== AWAITING && status !== ANY && !q.statuses.includes(status)) {
          throw new AppError('invalid_request', `No such status: ${status}`);
        }
        const assignee: staffStore.AssigneeFilter | undefined =
          query.assignee === 'me'
            ? { staffId: member.staff_id }
            : query.assignee === 'unassigned'
              ? 'unassigned'
              : undefined;
        const { rows, next } = await q.list(platform, request, {
          tenant_id: query.tenant_id?.trim() || undefined,
          status: status === ANY ? undefined : status,
          assignee,
          overdue: query.overdue ? true : undefined,
          cursor: query.cursor || undefined,
        });
        // Two batched lookups for the page's cases, never one per row.
        const ids = rows.map((r) => r.id);
        const [assigned, pending] = await Promise.all([
          staffStore.assignees(platform.db, q.subject, ids),
          // KYC reviews take no four-eyes decision.
          q.subject === 'kyc' ? new Map() : fourEyes.pendingProposalsFor(platform.db, q.subject, ids),
        ]);
        const now = platform.clock.now();
        const nextQuery = new URLSearchParams({
          ...(query.tenant_id ? { tenant_id: query.tenant_id } : {}),
          status,
          ...(query.assignee ? { assignee: query.assignee } : {}),
          ...(query.overdue ? { overdue: 'true' } : {}),
          ...(next ? { cursor: next } : {}),
        });
        const body = html`${filterForm(q, query, status)}
          <p class="keys">
            Keys: <kbd>j</kbd> next row · <kbd>k</kbd> previous row · <kbd>Enter</kbd> open the case
          </p>
          ${
            rows.length === 0
              ? html`<p>No cases match.</p>`
              : html`<table>
                  <thead>
                    <tr>
                      <th scope="col">Case</th>
                      <th scope="col">Tenant</th>
                      <th scope="col">User</th>
                      <th scope="col">Status</th>
                      <th scope="col">Opened</th>
                      <th scope="col">Due</th>
                      <th scope="col">Assignee</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${rows.map((r) => {
                      const who = assigned.get(r.id);
                      const proposal = pending.get(r.id);
                      return html`<tr data-href="${casePath(q.subject, r.id)}">
                        <td><a href="${casePath(q.subject, r.id)}">${r.id}</a></td>
                        <td>${r.tenant_id}</td>
                        <td>${r.user_id}</td>
                        <td>
                          ${statusLabel(r.status)}
                          ${
                            proposal
                              ? html` <span class="badge pending"
                                  >proposed: ${statusLabel(proposal.action)}</span
                                >`
                              : ''
                          }
                        </td>
                        <td>${time(r.opened_at)}</td>
                        <td>${time(r.due_at)} ${slaBadge(r.due_at, r.breached, r.awaiting, now)}</td>
                        <td>
                          ${
                            who
                              ? who.staff_id === member.staff_id
                                ? html`${who.display_name} (you)`
                                : who.display_name
                              : html`<span class="muted">nobody</span>`
                          }
                        </td>
                      </tr>`;
                    })}
                  </tbody>
                </table>`
          }
          ${next ? html`<p><a href="/console/queues/${q.subject}?${nextQuery.toString()}">Next page</a></p>` : ''}`;
        return sendPage(
          reply,
          page(
            { title: q.title, member, current: `/console/queues/${q.subject}`, notice: query.notice, now },
            body,
          ),
        );
      },
    );
  }

  const CaseParams = Type.Object({
    subject: Type.Enum(CASE_SUBJECTS),
    subject_id: Type.String({ minLength: 1, maxLength: 100 }),
  });
  type CaseParams = { subject: ReviewQueue; subject_id: string };

  app.post<{ Params: CaseParams }>(
    '/console/cases/:subject/:subject_id/take',
    { config: { staffAction: 'decide_cases' }, schema: { params: CaseParams } },
    async (request, reply) => {
      const { subject, subject_id } = request.params;
      await takeCase(consoleContext(platform, request), subject, subject_id);
      return redirectWithNotice(reply, casePath(subject, subject_id), 'You took this case');
    },
  );

  app.post<{ Params: CaseParams; Body: { body: string } }>(
    '/console/cases/:subject/:subject_id/notes',
    {
      config: { staffAction: 'decide_cases' },
      schema: {
        params: CaseParams,
        body: Type.Object({ body: Type.String({ minLength: 1, maxLength: 5000, pattern: '\\S' }) }),
      },
    },
    async (request, reply) => {
      const { subject, subject_id } = request.params;
      await addNote(consoleContext(platform, request), subject, subject_id, request.body.body);
      return redirectWithNotice(reply, casePath(subject, subject_id), 'Note added');
    },
  );
}
