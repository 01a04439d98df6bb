import type { FastifyInstance } from 'fastify';
import {
  type SanctionsEntity,
  type ListVersion,
  type SanctionsMatch,
  AWAITING_REVIEW,
  FOUR_EYES_DECISIONS,
  type Decision,
  approveDecision,
  caseSurroundings,
  decideCase,
  findCase,
  rejectDecision,
} from '../../areas/sanctions/index.js';
import type { Platform } from '../../platform/context.js';
import { html, time, type Html } from '../../platform/html.js';
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
import { dismissalActors } from './sanctions-dismissals.js';
import {
  CHANGE_WORDS,
  delistedWarning,
  earlierDismissals,
  listChangeBlock,
  type FoundCase,
} from './sanctions-list-change.js';
import { versionLink } from './sanctions-parts.js';

/**
 * The listed entity behind a match, from the list publication this process serves, when it is the very version the
 * case was matched against (otherwise the stored match is all we can vouch for).
 */
function listedEntity(platform: Platform, match: SanctionsMatch, version: ListVersion | undefined) {
  const served = platform.vendors.sanctions.lists?.served.get(match.list as SanctionsEntity['list']);
  if (!served || !version || served.publication.published_on !== version.published_on) return undefined;
  return served.publication.entities.find((e) => e.list_entity_id === match.entity_id);
}

const listOrDash = (values: readonly string[] | undefined) =>
  values?.length ? values.join(', ') : html`<span class="muted">not stored</span>`;

/** Which of the screened person's fields matched the entry, as the matcher recorded it. */
function matchedFields(m: SanctionsMatch): Html {
  const name = `Name: "${m.name}"${m.matched_name_quality ? ` (${m.matched_name_quality} name)` : ''}${
    m.name_score !== undefined ? `, name score ${m.name_score.toFixed(2)}` : ''
  }${m.weak_alias_capped ? ', weak alias only' : ''}`;
  return html`<ul>
    <li>${name}</li>
    <li>Date of birth: ${m.date_of_birth ?? 'not compared'}</li>
    <li>Nationality: ${m.nationality ?? 'not compared'}</li>
  </ul>`;
}

function entryBlock(
  platform: Platform,
  m: SanctionsMatch,
  found: FoundCase,
  names: Map<string, string>,
): Html {
  const version = found.list_versions[m.list];
  const change = found.list_change?.list === m.list ? found.list_change : null;
  const changed = change?.entities.find((e) => e.entity_id === m.entity_id);
  const delisted = found.delisted.find((d) => d.list === m.list && d.entity_id === m.entity_id);
  const earlier = found.earlier_dismissals.filter((d) => d.list === m.list && d.entity_id === m.entity_id);
  const entity = listedEntity(platform, m, version);
  const dates = entity?.dates_of_birth.map((d) => (d.kind === 'exact' ? d.from : `${d.from} to ${d.to}`));
  return html`<div>
    <h3>Listed: ${entity?.primary_name ?? m.primary_name ?? m.name}</h3>
    ${delisted ? delistedWarning(delisted) : ''}
    <dl class="facts">
      <dt>Names and aliases</dt>
      <dd>${entity ? entity.names.map((n) => n.name).join('; ') : m.name}</dd>
      <dt>Dates of birth</dt>
      <dd>${listOrDash(dates)}</dd>
      <dt>Nationalities</dt>
      <dd>${listOrDash(entity ? [...entity.nationalities, ...entity.citizenships] : undefined)}</dd>
      <dt>Programme</dt>
      <dd>${listOrDash(entity?.programmes ?? m.programmes)}</dd>
      <dt>List</dt>
      <dd>${m.list} · entry ${m.entity_id}${m.entity_type ? ` · ${m.entity_type}` : ''}</dd>
      <dt>List version</dt>
      <dd>${version ? `${version.published_on} (${version.format})` : (m.list_published_on ?? '—')}</dd>
      <dt>Score</dt>
      <dd>${m.score.toFixed(2)}</dd>
      <dt>Matched on</dt>
      <dd>${matchedFields(m)}</dd>
      ${
        change && changed
          ? html`<dt>List change</dt>
              <dd>${CHANGE_WORDS[changed.change]} by the ${versionLink(change)}</dd>`
          : ''
      }
    </dl>
    ${earlierDismissals(m, earlier, names)}
  </div>`;
}

/** A sanctions hit: the screened person beside each matched list entry, the decision, four eyes, notes. */
export function sanctionsCasePages(app: FastifyInstance, platform: Platform): void {
  const casePage: CasePage<Decision> = {
    queue: 'sanctions',
    idParam: 'case_id',
    async render({ ctx, member, id, now }) {
      const found = await findCase(ctx, id);
      const [around, state] = await Promise.all([
        caseSurroundings(ctx, found),
        fourEyesWork(ctx, 'sanctions', found.case_id, [
          found.reviewer,
          ...dismissalActors(found.earlier_dismissals),
        ]),
      ]);
      const awaiting = found.status === AWAITING_REVIEW;
      const person = around.person;
      const screened = html`<div>
        <h3>Screened: ${person ? `${person.first_name} ${person.last_name}` : found.user_id}</h3>
        ${
          person
            ? html`<dl class="facts">
                <dt>First name</dt>
                <dd>${person.first_name}</dd>
                <dt>Last name</dt>
                <dd>${person.last_name}</dd>
                <dt>Date of birth</dt>
                <dd>${person.date_of_birth}</dd>
                <dt>Nationality</dt>
                <dd>${person.nationality}</dd>
                <dt>User</dt>
                <dd>${found.user_id}</dd>
                <dt>Screened</dt>
                <dd>${time(person.checked_at)} (${person.vendor})</dd>
              </dl>`
            : html`<p class="muted">The screen's personal details are not stored.</p>`
        }
      </div>`;
      const body = html`${queueLinks('sanctions', around.prev, around.next)} ${caseKeys}
        <dl class="facts">
          <dt>Status</dt>
          <dd>${found.status.replace(/_/g, ' ')}</dd>
          <dt>Due</dt>
          <dd>${time(found.due_at)} ${slaBadge(found.due_at, found.sla_breached, awaiting, now)}</dd>
          <dt>Tenant</dt>
          <dd>${found.tenant_id}</dd>
          <dt>Opened</dt>
          <dd>${time(found.opened_at)} (${found.trigger.replace(/_/g, ' ')})</dd>
          ${decidedFacts('Decided', found, state.names)}
        </dl>
        <p><a href="${playerPath(found.tenant_id, found.user_id)}">Everything about this player</a></p>
        ${takeBlock(member, 'sanctions', found.case_id, state.work.assignee)}
        ${found.list_change ? listChangeBlock(found.list_change) : ''}
        <h2>Evidence</h2>
        ${found.matches.map(
          (m) =>
            html`<section class="evidence" aria-label="Match ${m.entity_id}">
              ${screened} ${entryBlock(platform, m, found, state.names)}
            </section>`,
        )}
        ${decisionSection(member, casePage, found.case_id, state, {
          decisions: awaiting ? casePage.decisions : [],
          closed: '',
        })}
        ${notesBlock(member, 'sanctions', found.case_id, state.work.notes)}`;
      return { title: `Sanctions hit ${found.case_id}`, body };
    },
    decisions: ['cleared', 'confirmed'],
    labels: { cleared: 'Clear (false positive)', confirmed: 'Confirm match' },
    reasonMaxLength: 2000,
    decide: (ctx, id, decision, reason) => decideCase(ctx, id, { decision, reason }),
    decidedNotice: (status) => `Case ${status}`,
    fourEyes: {
      decisions: FOUR_EYES_DECISIONS,
      proposal: () => 'Confirmation',
      approve: approveDecision,
      reject: rejectDecision,
    },
  };
  casePageRoutes(app, platform, casePage);
}
