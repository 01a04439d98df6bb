import type { FastifyInstance } from 'fastify';
import {
  isOpen,
  REVIEW_DUE_AFTER_SECONDS,
  ruleOf,
  type KycDocument,
  staffManualReview,
  reviewDetail,
} from '../../areas/kyc/index.js';
import { caseWork } from '../../platform/case-work/assignment.js';
import type { Platform } from '../../platform/context.js';
import { displayNames } from '../../staff/index.js';
import { html, time, type Html } from '../../platform/html.js';
import { formatMoney } from '../../platform/money.js';
import { caseKeys, notesBlock, playerPath, queueLinks, slaBadge, takeBlock } from './case-parts.js';
import { caseDecisionForm, casePageRoutes, type CasePage } from './case-page.js';

const DOCUMENT_LABELS: Record<KycDocument, string> = {
  email_otp: 'Email confirmed by one-time code',
  phone_otp: 'Phone confirmed by one-time code',
  government_id: 'Government-issued photo ID',
  selfie: 'Selfie (liveness) matching the ID',
  proof_of_address: 'Proof of address',
  source_of_funds: 'Source of funds',
};

/** Where the vendor flow stands, by the check's status (the sandbox vendor reports nothing else). */
const VENDOR_STATUS: Record<string, string> = {
  not_started: 'Session opened; the player has not begun the vendor flow',
  in_progress: 'The player is in the vendor flow',
  pending_review: 'Documents submitted through the vendor; awaiting manual review',
  approved: 'Verified',
  rejected: 'Rejected',
  expired: 'Abandoned: the player did not finish within 7 days',
};

/** decided_by as stored: `staff:<id>` for the service's staff, `key:<prefix>` for a tenant admin key. */
function deciderOf(decidedBy: string | null, names: Map<string, string>): string {
  if (!decidedBy) return '';
  const staffId = decidedBy.startsWith('staff:') ? decidedBy.slice(6) : undefined;
  return staffId ? (names.get(staffId) ?? staffId) : decidedBy;
}

/** A KYC check awaiting manual review: what the tier needs, what the vendor says, its history and the decision. */
export function kycCasePages(app: FastifyInstance, platform: Platform): void {
  const casePage: CasePage<'approve' | 'reject'> = {
    queue: 'kyc',
    idParam: 'check_id',
    async render({ ctx, member, id, now }) {
      const { check, sla_breached, environment, prev, next } = await reviewDetail(ctx, id);
      const work = await caseWork(ctx, 'kyc', check.kyc_check_id);
      const decider = check.decided_by?.startsWith('staff:') ? [check.decided_by.slice(6)] : [];
      const names = await displayNames(ctx.db, decider);
      const awaiting = check.status === 'pending_review';
      const submittedAt =
        check.review_due_at && new Date(check.review_due_at.getTime() - REVIEW_DUE_AFTER_SECONDS * 1000);
      const history: [Date, Html | string][] = [
        [check.created_at, 'Check opened (not started)'],
        ...(submittedAt ? [[submittedAt, 'Submitted for review (pending review)'] as [Date, string]] : []),
        ...(check.decided_at
          ? [
              [
                check.decided_at,
                html`${check.status} by
                ${deciderOf(check.decided_by, names)}${
                  check.decision_reason ? html`: ${check.decision_reason}` : ''
                }`,
              ] as [Date, Html],
            ]
          : []),
      ];
      const body = html`${queueLinks('kyc', prev, next)} ${caseKeys}
        <dl class="facts">
          <dt>Status</dt>
          <dd>${check.status.replace(/_/g, ' ')}</dd>
          ${
            check.review_due_at
              ? html`<dt>Due</dt>
                  <dd>
                    ${time(check.review_due_at)} ${slaBadge(check.review_due_at, sla_breached, awaiting, now)}
                  </dd>`
              : ''
          }
          <dt>Tenant</dt>
          <dd>${check.tenant_id} (${environment})</dd>
          <dt>User</dt>
          <dd>${check.user_id}</dd>
          <dt>Target tier</dt>
          <dd>${check.required_tier}</dd>
          <dt>Withdrawal held</dt>
          <dd>
            ${check.withdrawal_id ?? '—'}: ${formatMoney(check.withdrawal_amount_cents, check.currency)}
            ${check.currency === 'USD' ? '' : `(${formatMoney(check.withdrawal_usd_cents, 'USD')})`}
          </dd>
        </dl>
        <p><a href="${playerPath(check.tenant_id, check.user_id)}">Everything about this player</a></p>
        ${takeBlock(member, 'kyc', check.kyc_check_id, work.assignee)}
        <h2>Required documents</h2>
        <ul>
          ${ruleOf(check.required_tier).documents.map((d) => html`<li>${DOCUMENT_LABELS[d]}</li>`)}
        </ul>
        <h2>Vendor</h2>
        <dl class="facts">
          <dt>Vendor status</dt>
          <dd>${VENDOR_STATUS[check.status] ?? check.status}</dd>
          <dt>Vendor link expires</dt>
          <dd>${time(check.vendor_token_expires_at)}</dd>
          <dt>Last activity</dt>
          <dd>${time(check.last_activity_at)}</dd>
        </dl>
        <h2>History</h2>
        <ol class="timeline">
          ${history.map(([at, what]) => html`<li>${time(at)} · ${what}</li>`)}
        </ol>
        ${
          isOpen(check.status)
            ? caseDecisionForm(member, casePage, check.kyc_check_id, casePage.decisions)
            : ''
        }
        ${notesBlock(member, 'kyc', check.kyc_check_id, work.notes)}`;
      return { title: `KYC check ${check.kyc_check_id}`, body };
    },
    decisions: ['approve', 'reject'],
    labels: { approve: 'Approve', reject: 'Reject' },
    reasonMaxLength: 1000,
    decide: (ctx, id, decision, reason) => staffManualReview(ctx, id, { decision, reason }),
    decidedNotice: (status) => `Check ${status}`,
  };
  casePageRoutes(app, platform, casePage);
}
