import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  clearContest,
  followUpId,
  playerOfFollowUp,
  type PlayerSaferGambling,
} from '../../areas/safer-gambling/index.js';
import type { Platform, StaffMember } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { html, time, type Html } from '../../platform/html.js';
import { formatMoney } from '../../platform/money.js';
import { roleMay } from '../../staff/index.js';
import { consoleContext } from '../console-auth.js';
import { csrfField } from '../layout.js';
import { notesBlock, playerPath, takeBlock, type CaseNoteView } from './case-parts.js';
import { durationText } from './dashboard.js';
import { table } from './record-table.js';
import { redirectWithNotice } from './respond.js';

const words = (value: string) => value.replace(/_/g, ' ');

/**
 * A marker's measured value or threshold in its unit, where the marker says it: spend in USD, night play as a share,
 * long play's time played (the trip's details name the condition) as a duration; a count otherwise.
 */
function measure(code: string, value: number, details?: Record<string, unknown>): string {
  if (code === 'SG-001') return formatMoney(value, 'USD');
  if (code === 'SG-003') return `${value}%`;
  if (code === 'SG-006' && details?.condition === 'time_played') return durationText(value * 1000);
  return String(value);
}

const contestPath = (tenantId: string, userId: string) => `${playerPath(tenantId, userId)}/contest/clear`;

function clearContestForm(member: StaffMember, tenantId: string, userId: string): Html {
  return html`<form method="post" action="${contestPath(tenantId, userId)}" class="stack narrow">
    ${csrfField(member)}
    <label for="contest-reason">Why clear the contest</label>
    <p class="hint" id="contest-reason-hint">
      What you found. The player leaves the follow-up queue unless their interaction is also overdue; the
      markers stay as they are.
    </p>
    <textarea
      id="contest-reason"
      name="reason"
      rows="2"
      maxlength="2000"
      required
      aria-describedby="contest-reason-hint"
    ></textarea>
    <button type="submit">Clear the contest</button>
  </form>`;
}

/**
 * The player's safer gambling, for staff: the level and what it owes, each marker's state, the markers' timeline
 * (every trip with what it measured against its threshold, newest first), the interactions the operator recorded
 * and the financial checks called for.
 */
export function saferGamblingSection(
  member: StaffMember,
  tenantId: string,
  userId: string,
  sg: PlayerSaferGambling,
  work: { assignee: { staff_id: string; display_name: string } | null; notes: CaseNoteView[] },
): Html {
  const followUp = followUpId(tenantId, userId);
  // The case work of the staff's queue, while the player is in it or once staff have written on it.
  const inQueue = sg.interaction_overdue_at !== null || sg.contested_at !== null;
  return html`<section id="safer-gambling" aria-labelledby="safer-gambling-heading">
    <h2 id="safer-gambling-heading">Safer gambling</h2>
    <dl class="facts">
      <dt>Risk level</dt>
      <dd>
        <span class="badge${sg.risk_level === 'high' ? ' breached' : ''}">${sg.risk_level}</span>
        ${sg.level_changed_at ? html`since ${time(sg.level_changed_at)}` : ''}
      </dd>
      <dt>Interaction due</dt>
      <dd>${sg.interaction_due_at ? time(sg.interaction_due_at) : 'None owed'}</dd>
      <dt>Overdue</dt>
      <dd>
        ${sg.interaction_overdue_at ? html`<span class="badge breached">overdue</span> since ${time(sg.interaction_overdue_at)}` : 'No'}
      </dd>
      <dt>Contested</dt>
      <dd>
        ${sg.contested_at ? html`<span class="badge pending">contested</span> ${time(sg.contested_at)}, interaction ${sg.contested_interaction_id}` : 'No'}
      </dd>
    </dl>
    ${sg.contested_at && roleMay(member.role, 'decide_cases') ? clearContestForm(member, tenantId, userId) : ''}
    ${inQueue ? takeBlock(member, 'safer_gambling', followUp, work.assignee) : ''}

    <h3>Markers</h3>
    ${table(
      sg.markers,
      [
        ['Code', (m) => m.code],
        ['Marker', (m) => m.name],
        ['Level', (m) => m.level],
        ['State', (m) => m.state],
        ['Last tripped', (m) => time(m.last_tripped_at)],
        ['Active until', (m) => time(m.active_until)],
        ['Reviewed', (m) => time(m.reviewed_at)],
        ['Measured', (m) => measure(m.code, m.measured_value)],
        ['Threshold', (m) => measure(m.code, m.threshold)],
      ],
      { empty: 'No marker ever tripped.' },
    )}

    <h2>Markers' timeline</h2>
    <p class="hint">
      Every trip of a marker, newest first: what the evaluation measured against its threshold.
    </p>
    ${table(
      sg.trips,
      [
        ['Tripped', (t) => time(t.tripped_at)],
        ['Code', (t) => t.code],
        ['Marker', (t) => t.name],
        ['Level', (t) => t.level],
        ['Observed', (t) => time(t.observed_at)],
        ['Measured', (t) => measure(t.code, t.measured_value, t.details)],
        ['Threshold', (t) => measure(t.code, t.threshold, t.details)],
        ['Catalogue', (t) => t.catalogue_version],
      ],
      { empty: 'No marker tripped.' },
    )}

    <h2>Safer-gambling interactions</h2>
    <p class="hint">What the operator recorded doing, newest first.</p>
    ${table(
      sg.interactions,
      [
        ['Interaction', (i) => i.interaction_id],
        ['Occurred', (i) => time(i.occurred_at)],
        ['Kind', (i) => words(i.kind)],
        ['Outcome', (i) => words(i.outcome)],
        ['Settled the interaction due', (i) => time(i.settled_due_at)],
        ['Markers reviewed', (i) => i.reviewed_markers.map((m) => m.code).join(', ')],
        ['Notes', (i) => i.notes],
      ],
      { empty: 'No interaction recorded.' },
    )}

    <h2>Financial checks</h2>
    <p class="hint">Checks the player's net deposits called for, newest first.</p>
    ${table(
      sg.financial_checks,
      [
        ['Called', (c) => time(c.called_at)],
        ['Level', (c) => c.level],
        ['Window', (c) => words(c.window_name)],
        ['Net deposits', (c) => formatMoney(c.net_deposits_cents, c.currency)],
        ['Threshold', (c) => formatMoney(c.threshold_cents, c.currency)],
      ],
      { empty: 'No financial check called for.' },
    )}
    ${inQueue || work.notes.length ? notesBlock(member, 'safer_gambling', followUp, work.notes) : ''}
  </section>`;
}

type PlayerParams = { tenant_id: string; user_id: string };
const PlayerParams = Type.Object({
  tenant_id: Type.String({ minLength: 1, maxLength: 64 }),
  user_id: Type.String({ minLength: 1, maxLength: 255 }),
});

/** Clearing a contest, and a follow-up of the staff's queue (its take and note redirect here) shown as its player. */
export function saferGamblingPages(app: FastifyInstance, platform: Platform): void {
  app.post<{ Params: PlayerParams; Body: { reason: string } }>(
    '/console/players/:tenant_id/:user_id/contest/clear',
    {
      config: { staffAction: 'decide_cases' },
      schema: {
        params: PlayerParams,
        body: Type.Object({ reason: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S' }) }),
      },
    },
    async (request, reply) => {
      const { tenant_id: tenantId, user_id: userId } = request.params;
      await clearContest(consoleContext(platform, request), {
        tenant_id: tenantId,
        user_id: userId,
        reason: request.body.reason.trim(),
      });
      return redirectWithNotice(reply, playerPath(tenantId, userId), 'Contest cleared');
    },
  );

  app.get<{ Params: { follow_up_id: string } }>(
    '/console/safer_gambling/:follow_up_id',
    {
      config: { staffAction: 'read' },
      schema: { params: Type.Object({ follow_up_id: Type.String({ minLength: 3, maxLength: 330 }) }) },
    },
    async (request, reply) => {
      const player = playerOfFollowUp(request.params.follow_up_id);
      if (!player) throw new AppError('not_found', 'No such safer-gambling follow-up');
      const notice = (request.query as { notice?: string }).notice;
      const to = playerPath(player.tenantId, player.userId);
      return notice ? redirectWithNotice(reply, to, notice) : reply.redirect(to, 303);
    },
  );
}
