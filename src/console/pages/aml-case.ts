import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  ALLOWED_DECISIONS,
  DECISION_ACTIONS,
  FOUR_EYES_ACTIONS,
  isAwaitingReview,
  type DecisionAction,
} from '../../areas/aml/index.js';
import { approveDecision, decideCase, rejectDecision } from '../../areas/aml/index.js';
import { caseSurroundings, staffCaseDetail } from '../../areas/aml/index.js';
import type { Platform } from '../../platform/context.js';
import * as fourEyes from '../../platform/four-eyes.js';
import { formatMoney } from '../../platform/money.js';
import { caseWork } from '../../staff/index.js';
import { displayNames } from '../../staff/index.js';
import { consoleContext, memberOf } from '../console-auth.js';
import { html, time } from '../../platform/html.js';
import { page } from '../layout.js';
import {
  actorsOf,
  caseKeys,
  casePath,
  decisionForm,
  historyBlock,
  notesBlock,
  playerPath,
  proposalBlock,
  queueLinks,
  slaBadge,
  takeBlock,
} from './case-parts.js';
import { redirectWithNotice, sendPage } from './respond.js';

const ACTION_LABELS: Record<DecisionAction, string> = {
  confirm_hold: 'Confirm the hold',
  clear: 'Clear (release)',
  escalate: 'Escalate for a suspicious activity report',
  freeze: 'Freeze the account',
};
const labelOf = (action: string) => ACTION_LABELS[action as DecisionAction] ?? action;

const amounts = (e: { amount_cents: number; currency: string; usd_cents: number }) =>
  e.currency === 'USD'
    ? formatMoney(e.amount_cents, 'USD')
    : `${formatMoney(e.amount_cents, e.currency)} (${formatMoney(e.usd_cents, 'USD')})`;

type Params = { case_id: string };
const Params = Type.Object({ case_id: Type.String({ minLength: 1, maxLength: 100 }) });
const Reason = Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S' });

/** An AML case: the rules it triggered, its transactions and the user's recent events, beside the decision. */
export function amlCasePages(app: FastifyInstance, platform: Platform): void {
  app.get<{ Params: Params; Querystring: { notice?: string } }>(
    '/console/aml/:case_id',
    { config: { staffAction: 'read' }, schema: { params: Params } },
    async (request, reply) => {
      const member = memberOf(request);
      const ctx = consoleContext(platform, request);
      const found = await staffCaseDetail(ctx, request.params.case_id);
      const [around, work, proposals] = await Promise.all([
        caseSurroundings(ctx, found),
        caseWork(ctx, 'aml', found.case_id),
        fourEyes.proposalsOf(ctx.db, 'aml', found.case_id),
      ]);
      const names = await displayNames(ctx.db, [
        ...actorsOf(proposals),
        ...(found.reviewer ? [found.reviewer] : []),
      ]);
      const pending = proposals.find((p) => p.status === 'pending');
      const now = platform.clock.now();
      const base = casePath('aml', found.case_id);
      const allowed = DECISION_ACTIONS.filter((a) =>
        ALLOWED_DECISIONS[found.origin][a].includes(found.status),
      );
      const body = html`${queueLinks('aml', around.prev, around.next)} ${caseKeys}
        <dl class="facts">
          <dt>Status</dt>
          <dd>${found.status.replace(/_/g, ' ')}</dd>
          <dt>Due</dt>
          <dd>
            ${time(found.due_at)}
            ${slaBadge(found.due_at, found.sla_breached, isAwaitingReview(found.status), now)}
          </dd>
          <dt>Origin</dt>
          <dd>
            ${found.origin.replace(/_/g, ' ')}${found.withdrawal_id ? ` · withdrawal ${found.withdrawal_id}` : ''}
          </dd>
          <dt>Risk score</dt>
          <dd>${found.risk_score}</dd>
          <dt>Tenant</dt>
          <dd>${found.tenant_id}</dd>
          <dt>User</dt>
          <dd>${found.user_id}</dd>
          <dt>Opened</dt>
          <dd>${time(found.opened_at)}</dd>
          ${
            found.decided_at
              ? html`<dt>Last decision</dt>
                  <dd>
                    ${time(found.decided_at)} by ${names.get(found.reviewer ?? '') ?? found.reviewer}:
                    ${found.decision_reason}
                  </dd>`
              : ''
          }
        </dl>
        <p><a href="${playerPath(found.tenant_id, found.user_id)}">Everything about this player</a></p>
        ${takeBlock(member, 'aml', found.case_id, work.assignee)}
        <h2>Rules triggered</h2>
        <ul>
          ${found.rules.map(
            (r) =>
              html`<li>
                <strong>${r.code}</strong> (${r.pattern}, severity ${r.severity}): ${r.description}
              </li>`,
          )}
        </ul>
        ${
          found.screen
            ? html`<h2>Withdrawal screened</h2>
                <p>
                  ${found.screen.withdrawal_id}: ${amounts(found.screen)} to
                  ${found.screen.destination_country} by ${found.screen.payment_method}, decided
                  ${found.screen.decision} at ${time(found.screen.screened_at)}
                </p>`
            : ''
        }
        <h2>Transactions to review</h2>
        ${
          found.transactions.length
            ? html`<table>
                <thead>
                  <tr>
                    <th scope="col">Transaction</th>
                    <th scope="col">Type</th>
                    <th scope="col">Amount</th>
                    <th scope="col">In USD</th>
                    <th scope="col">Payment method</th>
                    <th scope="col">Occurred</th>
                  </tr>
                </thead>
                <tbody>
                  ${found.transactions.map(
                    (t) =>
                      html`<tr>
                        <td>${t.transaction_id}</td>
                        <td>${t.event_type} (${t.status})</td>
                        <td>${formatMoney(t.amount_cents, t.currency)}</td>
                        <td>${formatMoney(t.usd_cents, 'USD')}</td>
                        <td>${t.payment_method ?? '—'}</td>
                        <td>${time(t.occurred_at)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>`
            : html`<p class="muted">The case names no transactions.</p>`
        }
        ${
          pending
            ? proposalBlock(member, base, pending, labelOf(pending.action), names)
            : allowed.length
              ? decisionForm(
                  member,
                  `${base}/decision`,
                  allowed.map((a) => ({
                    value: a,
                    label: ACTION_LABELS[a],
                    fourEyes: FOUR_EYES_ACTIONS.includes(a),
                  })),
                )
              : html`<p>This case is ${found.status}; it takes no further decisions.</p>`
        }
        ${historyBlock(proposals, labelOf, names)}
        <h2>Recent events of this user</h2>
        ${
          around.events.length
            ? html`<ol class="timeline">
                ${around.events.map(
                  (e) =>
                    html`<li>
                      ${time(e.occurred_at)} · ${e.event_type}
                      ${e.event_type === 'login' ? '' : html` · ${amounts(e)}`} · ${e.status} ·
                      ${e.transaction_id}
                    </li>`,
                )}
              </ol>`
            : html`<p class="muted">No events.</p>`
        }
        ${notesBlock(member, 'aml', found.case_id, work.notes)}`;
      return sendPage(
        reply,
        page(
          {
            title: `AML case ${found.case_id}`,
            member,
            current: '/console/queues/aml',
            notice: request.query.notice,
            now,
          },
          body,
        ),
      );
    },
  );

  app.post<{ Params: Params; Body: { decision: DecisionAction; reason: string } }>(
    '/console/aml/:case_id/decision',
    {
      config: { staffAction: 'decide_cases' },
      schema: {
        params: Params,
        body: Type.Object({ decision: Type.Enum(DECISION_ACTIONS), reason: Reason }),
      },
    },
    async (request, reply) => {
      const { case_id } = request.params;
      const { decision, reason } = request.body;
      const decided = await decideCase(consoleContext(platform, request), case_id, {
        action: decision,
        reason,
      });
      const notice = FOUR_EYES_ACTIONS.includes(decision)
        ? `${labelOf(decision)} proposed: it takes effect when a second member of staff approves it`
        : `Decision recorded: the case is ${decided.status}`;
      return redirectWithNotice(reply, casePath('aml', case_id), notice);
    },
  );

  app.post<{ Params: Params }>(
    '/console/aml/:case_id/approve',
    { config: { staffAction: 'approve_decisions' }, schema: { params: Params } },
    async (request, reply) => {
      const decided = await approveDecision(consoleContext(platform, request), request.params.case_id);
      return redirectWithNotice(
        reply,
        casePath('aml', decided.case_id),
        `Decision approved: the case is ${decided.status}`,
      );
    },
  );

  app.post<{ Params: Params; Body: { reason: string } }>(
    '/console/aml/:case_id/reject',
    {
      config: { staffAction: 'approve_decisions' },
      schema: { params: Params, body: Type.Object({ reason: Reason }) },
    },
    async (request, reply) => {
      const { case_id } = request.params;
      await rejectDecision(consoleContext(platform, request), case_id, request.body.reason);
      return redirectWithNotice(
        reply,
        casePath('aml', case_id),
        'Proposal rejected: the case awaits a decision',
      );
    },
  );
}
