import type { StaffMember } from '../../platform/context.js';
import type { DecisionProposal, FourEyesSubject } from '../../platform/four-eyes.js';
import type { ReviewQueue } from '../../platform/case-work/descriptor.js';
import { roleMay } from '../../staff/index.js';
import { html, time, type Html } from '../../platform/html.js';
import { csrfField } from '../layout.js';

/** The blocks every case page shares: SLA, take, notes, the decision form, four eyes, and the queue's neighbours. */

/** Where a case of each queue is worked. */
export const casePath = (subject: ReviewQueue, id: string) => `/console/${subject}/${encodeURIComponent(id)}`;

export const exclusionPath = (id: string) => `/console/exclusions/${encodeURIComponent(id)}`;

/** Where a four-eyes proposal is approved or rejected: its case, its register row, or the staff page. */
export function proposalPath(subject: FourEyesSubject, id: string): string {
  if (subject === 'exclusion') return exclusionPath(id);
  if (subject === 'staff') return `/console/staff#${encodeURIComponent(id)}`;
  return casePath(subject, id);
}

export const playerPath = (tenantId: string, userId: string) =>
  `/console/players/${encodeURIComponent(tenantId)}/${encodeURIComponent(userId)}`;

/** The countdown's text before the script takes over (and without script). */
export function timeLeft(dueAt: Date, now: Date): string {
  const ms = dueAt.getTime() - now.getTime();
  const minutes = Math.floor(Math.abs(ms) / 60_000);
  const text = `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
  return ms < 0 ? `overdue by ${text}` : `${text} left`;
}

/**
 * The SLA of a case: a live countdown while it awaits a decision, and a "breached" badge in words (never colour
 * alone) once it missed its due time.
 */
export function slaBadge(dueAt: Date, breached: boolean, awaiting: boolean, now: Date): Html {
  const countdown = awaiting
    ? html`<span class="countdown${breached ? ' overdue' : ''}" data-due="${dueAt.toISOString()}"
        >${timeLeft(dueAt, now)}</span
      >`
    : '';
  return html`${countdown}${breached ? html` <span class="badge breached">breached</span>` : ''}`;
}

/** The case's latest decision among its facts: when, by whom (by name) and why; nothing before its first. */
export function decidedFacts(
  label: string,
  found: { decided_at: Date | null; reviewer: string | null; decision_reason: string | null },
  names: Map<string, string>,
): Html | '' {
  return found.decided_at
    ? html`<dt>${label}</dt>
        <dd>
          ${time(found.decided_at)} by ${names.get(found.reviewer ?? '') ?? found.reviewer}:
          ${found.decision_reason}
        </dd>`
    : '';
}

/** Who has the case, and the "take" button (key t). */
export function takeBlock(
  member: StaffMember,
  subject: ReviewQueue,
  id: string,
  assignee: { staff_id: string; display_name: string } | null,
): Html {
  const mine = assignee?.staff_id === member.staff_id;
  const canTake = roleMay(member.role, 'decide_cases') && !mine;
  return html`<p>Assigned to: <strong>${mine ? 'you' : (assignee?.display_name ?? 'nobody')}</strong></p>
    ${
      canTake
        ? html`<form
            method="post"
            action="/console/cases/${subject}/${encodeURIComponent(id)}/take"
            class="inline"
          >
            ${csrfField(member)}
            <button type="submit" class="secondary" data-take>Take this case</button>
          </form>`
        : ''
    }`;
}

export interface CaseNoteView {
  author: string;
  body: string;
  created_at: string;
}

/** The notes on a case, with their author and time, and the form to add one. */
export function notesBlock(
  member: StaffMember,
  subject: ReviewQueue,
  id: string,
  notes: CaseNoteView[],
): Html {
  return html`<section aria-labelledby="notes-heading">
    <h2 id="notes-heading">Notes</h2>
    ${
      notes.length
        ? html`<ol class="timeline">
            ${notes.map(
              (n) =>
                html`<li>
                  <p><strong>${n.author}</strong> · ${time(n.created_at)}</p>
                  <p>${n.body}</p>
                </li>`,
            )}
          </ol>`
        : html`<p class="muted">No notes yet.</p>`
    }
    ${
      roleMay(member.role, 'decide_cases')
        ? html`<form
            method="post"
            action="/console/cases/${subject}/${encodeURIComponent(id)}/notes"
            class="stack narrow"
          >
            ${csrfField(member)}
            <label for="note">Note</label>
            <textarea id="note" name="body" rows="3" maxlength="5000" required></textarea>
            <button type="submit" class="secondary">Add note</button>
          </form>`
        : ''
    }
  </section>`;
}

export interface DecisionOption {
  value: string;
  label: string;
  fourEyes?: boolean;
}

/** The decision form (key d focuses its first choice): a choice and a reason, both required. */
export function decisionForm(member: StaffMember, action: string, options: DecisionOption[]): Html {
  if (!roleMay(member.role, 'decide_cases')) return html``;
  return html`<h2>Decide</h2>
    <form method="post" action="${action}" class="stack narrow">
      ${csrfField(member)}
      <fieldset>
        <legend>Decision</legend>
        ${options.map(
          (o, i) =>
            html`<div>
              <input
                type="radio"
                id="decision-${o.value}"
                name="decision"
                value="${o.value}"
                required
                ${i === 0 ? html`data-decision-start` : ''}
              />
              <label for="decision-${o.value}"
                >${o.label}${o.fourEyes ? ' (needs a second approver)' : ''}</label
              >
            </div>`,
        )}
      </fieldset>
      <label for="reason">Reason</label>
      <textarea id="reason" name="reason" rows="3" maxlength="1000" required></textarea>
      <button type="submit">Submit decision</button>
    </form>`;
}

const nameOf = (names: Map<string, string>, actor: string | null) =>
  actor ? (names.get(actor) ?? actor) : '';

/**
 * A four-eyes proposal awaiting its second member of staff: who proposed what, when and why; approve or reject
 * for a member who may (not the proposer).
 */
export function proposalBlock(
  member: StaffMember,
  base: string,
  pending: DecisionProposal,
  label: string,
  names: Map<string, string>,
): Html {
  const own = pending.proposed_by === member.staff_id;
  const mayApprove = roleMay(member.role, 'approve_decisions') && !own;
  return html`<section aria-labelledby="proposal-heading" class="card">
    <h2 id="proposal-heading"><span class="badge pending">pending approval</span> Proposed decision</h2>
    <dl class="facts">
      <dt>Proposed</dt>
      <dd>${label}</dd>
      <dt>By</dt>
      <dd>${own ? 'you' : nameOf(names, pending.proposed_by)}</dd>
      <dt>When</dt>
      <dd>${time(pending.proposed_at)}</dd>
      <dt>Reason</dt>
      <dd>${pending.reason}</dd>
    </dl>
    ${
      own
        ? html`<p>A second member of staff must approve this decision before it takes effect.</p>`
        : mayApprove
          ? html`<div class="row">
                <form method="post" action="${base}/approve" class="inline">
                  ${csrfField(member)}
                  <button type="submit">Approve</button>
                </form>
              </div>
              <form method="post" action="${base}/reject" class="stack narrow">
                ${csrfField(member)}
                <label for="reject-reason">Reason for rejecting</label>
                <textarea id="reject-reason" name="reason" rows="2" maxlength="2000" required></textarea>
                <button type="submit" class="danger">Reject proposal</button>
              </form>`
          : html`<p>A supervisor or an admin who did not propose it must approve this decision.</p>`
    }
  </section>`;
}

/** Every proposal on the case, oldest first: the four-eyes history. */
export function historyBlock(
  proposals: DecisionProposal[],
  labelOf: (action: string) => string,
  names: Map<string, string>,
): Html {
  if (proposals.length === 0) return html``;
  return html`<section aria-labelledby="history-heading">
    <h2 id="history-heading">Four-eyes history</h2>
    <ol class="timeline">
      ${proposals.map(
        (p) =>
          html`<li>
            <p>
              <strong>${nameOf(names, p.proposed_by)}</strong> proposed ${labelOf(p.action)} ·
              ${time(p.proposed_at)}: ${p.reason}
            </p>
            ${
              p.status === 'pending'
                ? html`<p><span class="badge pending">awaiting a second approver</span></p>`
                : html`<p>
                    <span class="badge ${p.status === 'approved' ? 'ok' : 'breached'}">${p.status}</span>
                    by ${nameOf(names, p.decided_by)} ·
                    ${time(p.decided_at)}${p.decision_reason ? html`: ${p.decision_reason}` : ''}
                  </p>`
            }
          </li>`,
      )}
    </ol>
  </section>`;
}

/** The staff ids a case page names (proposers, approvers): one display-name lookup for all. */
export const actorsOf = (proposals: DecisionProposal[]) =>
  proposals.flatMap((p) => [p.proposed_by, ...(p.decided_by ? [p.decided_by] : [])]);

/** Previous and next case in the queue (keys p and n). */
export function queueLinks(subject: ReviewQueue, prev: string | undefined, next: string | undefined): Html {
  if (!prev && !next) return html``;
  // A paragraph, not a <nav>: the stylesheet's nav rule is the top navigation band's.
  return html`<p class="row">
    ${prev ? html`<a rel="prev" href="${casePath(subject, prev)}">Previous case</a>` : ''}
    ${next ? html`<a rel="next" href="${casePath(subject, next)}">Next case</a>` : ''}
  </p>`;
}

export const caseKeys = html`<p class="keys">
  Keys: <kbd>t</kbd> take · <kbd>d</kbd> decide · <kbd>n</kbd> next case · <kbd>p</kbd> previous case
</p>`;
