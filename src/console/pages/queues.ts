import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { AML_REVIEW_QUEUE } from '../../areas/aml/index.js';
import { KYC_REVIEW_QUEUE, REVIEW_DUE_AFTER_SECONDS } from '../../areas/kyc/index.js';
import { SAFER_GAMBLING_REVIEW_QUEUE } from '../../areas/safer-gambling/index.js';
import { SANCTIONS_REVIEW_QUEUE } from '../../areas/sanctions/index.js';
import { addNote, assigneesOf, takeCase } from '../../platform/case-work/assignment.js';
import {
  REVIEW_QUEUES,
  type AssigneeFilter,
  type QueueCase,
  type QueueTable,
  type ReviewQueue,
  type ReviewQueueDescriptor,
} from '../../platform/case-work/descriptor.js';
import { listReviewQueue, queueEntry, type QueueFilter } from '../../platform/case-work/queue.js';
import type { Platform, ServiceContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import * as fourEyes from '../../platform/four-eyes.js';
import { consoleContext, memberOf } from '../console-auth.js';
import { html, time } from '../../platform/html.js';
import { page } from '../layout.js';
import { casePath, playerPath, slaBadge } from './case-parts.js';
import { redirectWithNotice, sendPage } from './respond.js';

/** One page of a queue; the listing sorts oldest due first and continues by cursor. */
const PAGE_SIZE = 50;

interface ConsoleQueue {
  subject: ReviewQueue;
  title: string;
  statuses: readonly string[];
  awaiting: readonly string[];
  /** Where a row leads: its case page, or the player page for a queue of players. */
  href(row: { id: string; tenant_id: string; user_id: string }): string;
  list(
    ctx: ServiceContext,
    filter: Omit<QueueFilter, 'limit'>,
  ): Promise<{ rows: (ReturnType<typeof queueEntry> & { opened_at: Date })[]; next: string | null }>;
}

/** A queue as the console lists it: the platform's entry of each case, and when the case came to the queue. */
function consoleQueue<TB extends QueueTable>(
  queue: ReviewQueueDescriptor<TB>,
  title: string,
  openedAt: (found: QueueCase<TB>) => Date,
  href: ConsoleQueue['href'] = (row) => casePath(queue.queue, row.id),
): ConsoleQueue {
  return {
    subject: queue.queue,
    title,
    statuses: queue.statuses,
    awaiting: queue.awaiting,
    href,
    async list(ctx, filter) {
      const listed = await listReviewQueue(ctx, queue, { ...filter, limit: PAGE_SIZE });
      const now = ctx.clock.now();
      const rows = listed.cases.map((c) => ({ ...queueEntry(queue, c, now), opened_at: openedAt(c) }));
      return { rows, next: listed.next_cursor };
    },
  };
}

const QUEUES: ConsoleQueue[] = [
  consoleQueue(SANCTIONS_REVIEW_QUEUE, 'Sanctions hits', (c) => c.opened_at),
  consoleQueue(AML_REVIEW_QUEUE, 'AML cases', (c) => c.opened_at),
  // Submitted for review: the due time less the review SLA.
  consoleQueue(
    KYC_REVIEW_QUEUE,
    'KYC reviews',
    (c) => new Date(c.review_due_at!.getTime() - REVIEW_DUE_AFTER_SECONDS * 1000),
  ),
  // Players, not cases: a row is the player's overdue interaction or contest, worked from the player page.
  consoleQueue(
    SAFER_GAMBLING_REVIEW_QUEUE,
    'Safer-gambling follow-ups',
    (c) => c.follow_up_at,
    (row) => playerPath(row.tenant_id, row.user_id),
  ),
];

/** The first status choice of every queue: what still waits on a reviewer. */
const AWAITING = 'awaiting';
const ANY = 'any';

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

function filterForm(q: ConsoleQueue, query: QueueQuery, status: string) {
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
        const assignee: AssigneeFilter | undefined =
          query.assignee === 'me'
            ? { staffId: member.staff_id }
            : query.assignee === 'unassigned'
              ? 'unassigned'
              : undefined;
        const { rows, next } = await q.list(consoleContext(platform, request), {
          tenant_id: query.tenant_id?.trim() || undefined,
          ...(status === AWAITING ? { statuses: q.awaiting } : status === ANY ? {} : { status }),
          assignee,
          overdue: query.overdue ? true : undefined,
          cursor: query.cursor || undefined,
        });
        // Two batched lookups for the page's cases, never one per row.
        const ids = rows.map((r) => r.id);
        const [assigned, pending] = await Promise.all([
          assigneesOf(platform, q.subject, ids),
          // Only a queue with four-eyes decisions (not KYC's) has proposals.
          fourEyes.isFourEyesSubject(q.subject)
            ? fourEyes.pendingProposalsFor(platform.db, q.subject, ids)
            : new Map<string, fourEyes.DecisionProposal>(),
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
                      return html`<tr data-href="${q.href(r)}">
                        <td><a href="${q.href(r)}">${r.id}</a></td>
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
                        <td>${time(r.due_at)} ${slaBadge(r.due_at, r.sla_breached, r.awaiting, now)}</td>
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
    subject: Type.Enum(REVIEW_QUEUES),
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
