import type { FastifyInstance } from 'fastify';
import { roleMay, displayNames } from '../../staff/index.js';
import {
  AML_REVIEW_QUEUE,
  EVALUATION_DEADLINE_MS,
  EVALUATION_PACED_WITHIN_MS,
  evaluationLag,
} from '../../areas/aml/index.js';
import { KYC_REVIEW_QUEUE } from '../../areas/kyc/index.js';
import { SAFER_GAMBLING_REVIEW_QUEUE } from '../../areas/safer-gambling/index.js';
import { SANCTIONS_REVIEW_QUEUE } from '../../areas/sanctions/index.js';
import { countAwaiting } from '../../platform/case-work/queue.js';
import type { Platform } from '../../platform/context.js';
import { countPendingProposals, pendingProposals, type DecisionProposal } from '../../platform/four-eyes.js';
import { DAY_MS } from '../../platform/utc-calendar.js';
import { webhookFailuresByTenant } from '../../platform/webhooks/recovery.js';
import { memberOf } from '../console-auth.js';
import { html, time, type Html } from '../../platform/html.js';
import { page } from '../layout.js';
import { sendPage } from './respond.js';

/** The oldest proposals listed under the approvals card; the approvals page has them all. */
const PROPOSALS_SHOWN = 5;
const TENANTS_SHOWN = 50;
/** Counts stop here: a queue past it reads "10,000 or more" instead of counting every row on each page view. */
const COUNT_CAP = 10_000;

/**
 * Each review queue's size and how many of its cases are past their due time, and how many decisions await a second
 * approval, each at most COUNT_CAP + 1.
 */
async function queueCounts(db: Platform['db'], now: Date) {
  const limit = COUNT_CAP + 1;
  const [sanctions, aml, kyc, saferGambling, proposals] = await Promise.all([
    countAwaiting(db, SANCTIONS_REVIEW_QUEUE, now, limit),
    countAwaiting(db, AML_REVIEW_QUEUE, now, limit),
    countAwaiting(db, KYC_REVIEW_QUEUE, now, limit),
    countAwaiting(db, SAFER_GAMBLING_REVIEW_QUEUE, now, limit),
    countPendingProposals(db, limit),
  ]);
  return { sanctions, aml, kyc, saferGambling, proposals };
}

/** A bounded count as staff read it: past the cap, "10,000 or more" (the query stopped counting there). */
export const countText = (n: number) =>
  n > COUNT_CAP ? `${COUNT_CAP.toLocaleString('en-GB')} or more` : n.toLocaleString('en-GB');

/** The oldest queued event's wait against the deadline: the figure turns red past it. */
function oldestWaiting(receivedAt: Date | null, now: Date, paced: boolean): Html {
  const pacing = paced
    ? `; while the API is busy, evaluation paces itself to ${durationText(EVALUATION_PACED_WITHIN_MS)}`
    : '';
  const deadline = html`<p class="muted">
    Deadline ${durationText(EVALUATION_DEADLINE_MS)} from acknowledgement${pacing}
  </p>`;
  if (!receivedAt)
    return html`<p class="figure">None waiting</p>
      ${deadline}`;
  const waited = now.getTime() - receivedAt.getTime();
  const late = waited > EVALUATION_DEADLINE_MS;
  const figure = durationText(waited);
  return html`<p class="figure ${late ? 'overdue' : ''}">${figure}</p>
    <p>Received ${time(receivedAt)}${late ? ', past the deadline' : ''}</p>
    ${deadline}`;
}

/** A duration in plain words, to its two largest units: "3 hours 5 minutes". */
export function durationText(ms: number): string {
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  let seconds = Math.max(0, Math.floor(ms / 1000));
  const parts: string[] = [];
  for (const [size, name] of units) {
    const n = Math.floor(seconds / size);
    seconds -= n * size;
    if (n > 0 && parts.length < 2) parts.push(`${n} ${name}${n === 1 ? '' : 's'}`);
  }
  return parts.length ? parts.join(' ') : '0 seconds';
}

function queueCard(title: string, href: string, counts: { open: number; overdue: number }): Html {
  return html`<div class="card">
    <h3><a href="${href}">${title}</a></h3>
    <p class="figure">${countText(counts.open)}</p>
    <p>
      <a href="${href}?overdue=true" class="${counts.overdue > 0 ? 'overdue' : ''}"
        >${countText(counts.overdue)} overdue</a
      >
    </p>
  </div>`;
}

function proposalsTable(proposals: DecisionProposal[], names: Map<string, string>): Html | '' {
  if (proposals.length === 0) return '';
  return html`<table>
    <caption class="muted">
      Oldest first
    </caption>
    <thead>
      <tr>
        <th scope="col">Case</th>
        <th scope="col">Proposed</th>
        <th scope="col">By</th>
        <th scope="col">When</th>
      </tr>
    </thead>
    <tbody>
      ${proposals.map(
        (p) =>
          html`<tr data-href="/console/${p.subject}/${p.subject_id}">
            <td><a href="/console/${p.subject}/${p.subject_id}">${p.subject_id}</a></td>
            <td>${p.action}</td>
            <td>${names.get(p.proposed_by) ?? p.proposed_by}</td>
            <td>${time(p.proposed_at)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

type Failures = Awaited<ReturnType<typeof webhookFailuresByTenant>>;

function failuresTable(failures: Failures): Html {
  if (failures.length === 0) return html`<p>No failed deliveries in the last 24 hours.</p>`;
  return html`<table>
    <thead>
      <tr>
        <th scope="col">Tenant</th>
        <th scope="col">Failed attempts</th>
        <th scope="col">Last failure</th>
        <th scope="col">Destination</th>
      </tr>
    </thead>
    <tbody>
      ${failures.map(
        (f) =>
          html`<tr data-href="/console/tenants/${f.tenant_id}">
            <td>
              <a href="/console/tenants/${f.tenant_id}">${f.name}</a>
              <span class="muted">${f.tenant_id}</span>
            </td>
            <td>${f.failures.toLocaleString('en-GB')}</td>
            <td>${time(f.last_failed_at)}</td>
            <td>
              ${
                f.webhook_disabled_at
                  ? html`<span class="badge breached">Disabled</span>`
                  : html`<span class="badge ok">Enabled</span>`
              }
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** The dashboard: what waits on staff, and whether the service's own queues keep up. */
export function dashboardPages(app: FastifyInstance, platform: Platform): void {
  app.get<{ Querystring: { notice?: string } }>(
    '/console',
    // Every role lands here after signing in; the regulator's (reports only) is sent on to the reports.
    { config: { staffAction: 'read_reports' } },
    async (request, reply) => {
      const member = memberOf(request);
      if (!roleMay(member.role, 'read')) return reply.redirect('/console/reports', 303);
      const now = platform.clock.now();
      const [counts, lag, failures, proposals] = await Promise.all([
        queueCounts(platform.db, now),
        evaluationLag(platform.db, COUNT_CAP + 1),
        webhookFailuresByTenant(platform.db, new Date(now.getTime() - DAY_MS), TENANTS_SHOWN),
        pendingProposals(platform.db, PROPOSALS_SHOWN),
      ]);
      const names = await displayNames(
        platform.db,
        proposals.map((p) => p.proposed_by),
      );
      const body = html`<h2>Review queues</h2>
        <div class="cards">
          ${queueCard('Sanctions hits awaiting review', '/console/queues/sanctions', counts.sanctions)}
          ${queueCard('AML cases under review', '/console/queues/aml', counts.aml)}
          ${queueCard('KYC checks awaiting review', '/console/queues/kyc', counts.kyc)}
          ${queueCard('Safer-gambling follow-ups', '/console/queues/safer_gambling', counts.saferGambling)}
          <div class="card">
            <h3><a href="/console/approvals">Decisions awaiting a second approval</a></h3>
            <p class="figure">${countText(counts.proposals)}</p>
          </div>
        </div>
        ${proposalsTable(proposals, names)}
        <h2>AML evaluation</h2>
        <div class="cards">
          <div class="card">
            <h3>Events waiting to be evaluated</h3>
            <p class="figure">${countText(lag.depth)}</p>
          </div>
          <div class="card">
            <h3>Oldest waiting event</h3>
            ${oldestWaiting(lag.oldestReceivedAt, now, platform.config.databaseUrl !== undefined)}
          </div>
          <div class="card">
            <h3>Dead letters</h3>
            <p class="figure">${countText(lag.deadLetters)}</p>
            <p class="muted">Events whose evaluation kept failing, not yet re-driven</p>
          </div>
        </div>
        <h2>Webhook failures in the last 24 hours</h2>
        ${failuresTable(failures)}`;
      return sendPage(
        reply,
        page({ title: 'Dashboard', member, current: '/console', notice: request.query.notice, now }, body),
      );
    },
  );
}
