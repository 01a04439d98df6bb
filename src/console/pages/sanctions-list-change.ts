import type { findCase, DismissalView, SanctionsMatch } from '../../areas/sanctions/index.js';
import { html, time, type Html } from '../../platform/html.js';
import { casePath } from './case-parts.js';
import { listName, versionLink } from './sanctions-parts.js';

/**
 * What the lists' changes add to a sanctions case: the list version that raised it, the delisting of a matched
 * entity, and the earlier dismissals of the same entity for the player.
 */

export type FoundCase = Awaited<ReturnType<typeof findCase>>;

export const CHANGE_WORDS = {
  added: 'added (a new designation)',
  changed: 'changed (its names, dates of birth or nationalities)',
};

/** Which list version brought a list_update case, and what it did to each matched entity. */
export function listChangeBlock(change: NonNullable<FoundCase['list_change']>): Html {
  return html`<section aria-labelledby="list-change-heading" class="card list-change">
    <h2 id="list-change-heading">Raised by a list change</h2>
    <dl class="facts">
      <dt>List</dt>
      <dd>${listName(change.list)}</dd>
      <dt>Version</dt>
      <dd>${versionLink(change)}</dd>
      <dt>Accepted</dt>
      <dd>${time(change.accepted_at)}</dd>
      <dt>Matched entities</dt>
      <dd>
        <ul class="plain">
          ${change.entities.map((e) => html`<li>${e.entity_id}: ${CHANGE_WORDS[e.change]}</li>`)}
        </ul>
      </dd>
    </dl>
  </section>`;
}

/** A matched entity a later list version removed: said plainly, because a delisting never decides the case. */
export function delistedWarning(d: FoundCase['delisted'][number]): Html {
  return html`<p class="warning">
    <strong>Delisted</strong> by the ${versionLink(d)} (accepted ${time(d.accepted_at)}): the case is not
    cleared by it; decide.
  </p>`;
}

/** Earlier dismissals of this entity for this player: who cleared it, when, and the score then against now. */
export function earlierDismissals(
  m: SanctionsMatch,
  earlier: DismissalView[],
  names: Map<string, string>,
): Html {
  if (earlier.length === 0) return html``;
  return html`<h4>Dismissed before for this player</h4>
    <ol class="timeline">
      ${earlier.map(
        (d) =>
          html`<li>
            <p>
              ${time(d.dismissed_at)} by
              <strong
                >${d.dismissed_by ? (names.get(d.dismissed_by) ?? d.dismissed_by) : 'not recorded'}</strong
              >
              in <a href="${casePath('sanctions', d.case_id)}">${d.case_id}</a>
            </p>
            <p>
              Score then ${d.score.toFixed(2)}, now
              ${m.score.toFixed(2)}${d.in_force ? '' : html` · ended ${time(d.ended_at)}`}
            </p>
          </li>`,
      )}
    </ol>`;
}
