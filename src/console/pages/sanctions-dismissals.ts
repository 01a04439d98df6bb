import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  WithdrawDismissalRequest,
  withdrawDismissal,
  type DismissalView,
} from '../../areas/sanctions/index.js';
import type { Platform, StaffMember } from '../../platform/context.js';
import { roleMay } from '../../staff/index.js';
import { consoleContext } from '../console-auth.js';
import { html, time, type Html } from '../../platform/html.js';
import { csrfField } from '../layout.js';
import { casePath, playerPath } from './case-parts.js';
import { redirectWithNotice } from './respond.js';
import { listName } from './sanctions-parts.js';

/** The staff ids a list of dismissals names (who dismissed, who ended): one display-name lookup for all. */
export const dismissalActors = (dismissals: DismissalView[]) =>
  dismissals.flatMap((d) => [d.dismissed_by, d.ended_by].filter((a): a is string => a !== null));

const who = (names: Map<string, string>, staffId: string | null) =>
  staffId ? (names.get(staffId) ?? staffId) : 'a member of staff not recorded';

const withdrawPath = (id: string) => `/console/sanctions/dismissals/${encodeURIComponent(id)}/withdraw`;

function withdrawForm(member: StaffMember, d: DismissalView): Html {
  const field = `withdraw-${d.dismissal_id}`;
  return html`<form method="post" action="${withdrawPath(d.dismissal_id)}" class="stack narrow">
    ${csrfField(member)}
    <label for="${field}">Why withdraw this dismissal</label>
    <p class="hint" id="${field}-hint">
      The next screening of the player (a list change, a re-screen) considers this entity again.
    </p>
    <textarea
      id="${field}"
      name="reason"
      rows="2"
      maxlength="2000"
      required
      aria-describedby="${field}-hint"
    ></textarea>
    <button type="submit" class="danger">Withdraw the dismissal</button>
  </form>`;
}

/**
 * A player's remembered dismissals (matches a reviewer cleared as false positives), those in force first: a later
 * screening does not raise the same entity again unless the player's details were corrected, or its content changed
 * and the match scores higher.
 */
export function dismissalsSection(
  member: StaffMember,
  dismissals: DismissalView[],
  names: Map<string, string>,
): Html {
  const mayWithdraw = roleMay(member.role, 'decide_cases');
  return html`<section aria-labelledby="dismissals-heading">
    <h2 id="dismissals-heading">Remembered dismissals</h2>
    <p class="hint">
      Matches a reviewer cleared as false positives. While one is in force, later screenings of this player do
      not raise the same entity again, unless the player's details are corrected, or the list changes the
      entity and the match then scores higher.
    </p>
    ${
      dismissals.length === 0
        ? html`<p class="muted">No dismissal remembered for this player.</p>`
        : dismissals.map(
            (d) =>
              html`<article class="card dismissal" aria-labelledby="${d.dismissal_id}-heading">
                <h3 id="${d.dismissal_id}-heading">
                  ${d.in_force ? html`<span class="badge ok">in force</span>` : html`<span class="badge">ended</span>`}
                  ${listName(d.list)} ${d.entity_id} · ${d.entity_name}
                </h3>
                <dl class="facts">
                  <dt>Dismissed</dt>
                  <dd>${time(d.dismissed_at)} by ${who(names, d.dismissed_by)}</dd>
                  <dt>Case</dt>
                  <dd><a href="${casePath('sanctions', d.case_id)}">${d.case_id}</a></dd>
                  <dt>Score then</dt>
                  <dd>${d.score.toFixed(2)}</dd>
                  <dt>Entity's content</dt>
                  <dd>
                    ${d.content_remembered ? 'remembered: a change to it is screened again' : 'not remembered (dismissed before list changes were recorded)'}
                  </dd>
                  ${
                    d.in_force
                      ? ''
                      : html`<dt>Ended</dt>
                          <dd>${time(d.ended_at)} by ${who(names, d.ended_by)}: ${d.end_reason}</dd>`
                  }
                </dl>
                ${d.in_force && mayWithdraw ? withdrawForm(member, d) : ''}
              </article>`,
          )
    }
  </section>`;
}

type Params = { dismissal_id: string };

/** The withdrawal of a remembered dismissal, by a signed-in member who may decide cases (audited by the verb). */
export function sanctionsDismissalPages(app: FastifyInstance, platform: Platform): void {
  app.post<{ Params: Params; Body: { reason: string } }>(
    '/console/sanctions/dismissals/:dismissal_id/withdraw',
    {
      config: { staffAction: 'decide_cases' },
      schema: {
        params: Type.Object({ dismissal_id: Type.String({ minLength: 1, maxLength: 64 }) }),
        // The form carries _csrf too: the API's fields, without its closed object.
        body: Type.Object(WithdrawDismissalRequest.properties),
      },
    },
    async (request, reply) => {
      const ended = await withdrawDismissal(
        consoleContext(platform, request),
        request.params.dismissal_id,
        request.body.reason.trim(),
      );
      return redirectWithNotice(
        reply,
        playerPath(ended.tenant_id, ended.user_id),
        `Dismissal of ${listName(ended.list)} ${ended.entity_id} withdrawn: the next screening considers it again`,
      );
    },
  );
}
