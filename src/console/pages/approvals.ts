import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import * as fourEyes from '../../platform/four-eyes.js';
import type { DecisionProposal, FourEyesSubject } from '../../platform/four-eyes.js';
import { displayNames } from '../../staff/index.js';
import { memberOf } from '../console-auth.js';
import { html, time } from '../../platform/html.js';
import { page } from '../layout.js';
import { proposalPath } from './case-parts.js';
import { staffChangeLabel } from './staff.js';
import { sendPage } from './respond.js';

/** How many pending proposals the page lists (a backlog longer than this is a problem of its own). */
const LIMIT = 200;

const SUBJECT_LABELS: Record<FourEyesSubject, string> = {
  sanctions: 'Sanctions hit',
  aml: 'AML case',
  exclusion: 'Register row',
  staff: 'Staff account',
};
const ACTION_LABELS: Record<string, string> = {
  confirmed: 'Confirm match',
  escalate: 'Escalate for a suspicious activity report',
  freeze: 'Freeze the account',
  void: 'Void the permanent exclusion',
};
const actionLabel = (p: DecisionProposal) =>
  p.subject === 'staff' ? staffChangeLabel(p.action) : (ACTION_LABELS[p.action] ?? p.action);

/** The four-eyes queue: decisions awaiting a second member of staff, oldest first. */
export function approvalPages(app: FastifyInstance, platform: Platform): void {
  app.get<{ Querystring: { notice?: string } }>(
    '/console/approvals',
    { config: { staffAction: 'read' } },
    async (request, reply) => {
      const member = memberOf(request);
      const pending = await fourEyes.pendingProposals(platform.db, LIMIT);
      const names = await displayNames(
        platform.db,
        pending.map((p) => p.proposed_by),
      );
      const body = html`<p>
          Each decision below takes effect only when a second member of staff approves it: a supervisor or an
          admin who did not propose it, and for a staff account a second admin.
        </p>
        ${
          pending.length === 0
            ? html`<p>No decision awaits approval.</p>`
            : html`<p class="keys">
                  Keys: <kbd>j</kbd> next row · <kbd>k</kbd> previous row · <kbd>Enter</kbd> open the case
                </p>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Subject</th>
                      <th scope="col">Kind</th>
                      <th scope="col">Tenant</th>
                      <th scope="col">Proposed</th>
                      <th scope="col">By</th>
                      <th scope="col">When</th>
                      <th scope="col">Reason</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${pending.map(
                      (p) =>
                        html`<tr data-href="${proposalPath(p.subject, p.subject_id)}">
                          <td><a href="${proposalPath(p.subject, p.subject_id)}">${p.subject_id}</a></td>
                          <td>${SUBJECT_LABELS[p.subject]}</td>
                          <td>${p.tenant_id ?? '—'}</td>
                          <td>${actionLabel(p)}</td>
                          <td>
                            ${p.proposed_by === member.staff_id ? 'you' : (names.get(p.proposed_by) ?? p.proposed_by)}
                          </td>
                          <td>${time(p.proposed_at)}</td>
                          <td>${p.reason}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>`
        }`;
      return sendPage(
        reply,
        page(
          {
            title: 'Approvals',
            member,
            current: '/console/approvals',
            notice: request.query.notice,
            now: platform.clock.now(),
          },
          body,
        ),
      );
    },
  );
}
