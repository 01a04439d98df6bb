import type { FastifyInstance } from 'fastify';
import {
  ALLOWED_DECISIONS,
  DECISION_ACTIONS,
  FOUR_EYES_ACTIONS,
  isAwaitingReview,
  type DecisionAction,
  approveDecision,
  decideCase,
  rejectDecision,
  caseSurroundings,
  staffCaseDetail,
} from '../../areas/aml/index.js';
import type { Platform } from '../../platform/context.js';
import { html, time } from '../../platform/html.js';
import { formatMoney } from '../../platform/money.js';
import {
  caseKeys,
  decidedFacts,
  notesBlock,
  playerPath,
  queueLinks,
  slaBadge,
  takeBlock,
} from './case-parts.js';
import { casePageRoutes, decisionSection, fourEyesWork, type CasePage } from './case-page.js';

const amounts = (e: { amount_cents: number; currency: string; usd_cents: number }) =>
  e.currency === 'USD'
    ? formatMoney(e.amount_cents, 'USD')
    : `${formatMoney(e.amount_cents, e.currency)} (${formatMoney(e.usd_cents, 'USD')})`;

/** An AML case: the rules it triggered, its transactions and the user's recent events, beside the decision. */
export function amlCasePages(app: FastifyInstance, platform: Platform): void {
  const casePage: CasePage<DecisionAction> = {
    queue: 'aml',
    idParam: 'case_id',
    async render({ ctx, member, id, now }) {
      const found = await staffCaseDetail(ctx, id);
      const [around, state] = await Promise.all([
        caseSurroundings(ctx, found),
        fourEyesWork(ctx, 'aml', found.case_id, [found.reviewer]),
      ]);
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
          ${decidedFacts('Last decision', found, state.names)}
        </dl>
        <p><a href="${playerPath(found.tenant_id, found.user_id)}">Everything about this player</a></p>
        ${takeBlock(member, 'aml', found.case_id, state.work.assignee)}
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
        ${decisionSection(member, casePage, found.case_id, state, {
          decisions: DECISION_ACTIONS.filter((a) =>
            ALLOWED_DECISIONS[found.origin][a].includes(found.status),
          ),
          closed: html`<p>This case is ${found.status}; it takes no further decisions.</p>`,
        })}
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
        ${notesBlock(member, 'aml', found.case_id, state.work.notes)}`;
      return { title: `AML case ${found.case_id}`, body };
    },
    decisions: DECISION_ACTIONS,
    labels: {
      confirm_hold: 'Confirm the hold',
      clear: 'Clear (release)',
      escalate: 'Escalate for a suspicious activity report',
      freeze: 'Freeze the account',
    },
    reasonMaxLength: 2000,
    decide: (ctx, id, action, reason) => decideCase(ctx, id, { action, reason }),
    decidedNotice: (status) => `Decision recorded: the case is ${status}`,
    fourEyes: {
      decisions: FOUR_EYES_ACTIONS,
      proposal: (action) => casePage.labels[action],
      approve: approveDecision,
      reject: rejectDecision,
    },
  };
  casePageRoutes(app, platform, casePage);
}
