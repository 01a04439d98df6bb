import type { SanctionsListId } from '../../areas/sanctions/index.js';
import { html, time, type Html } from '../../platform/html.js';

/** What the sanctions pages share: the lists' names, where a list version is shown, and its screening in words. */

const LIST_NAMES: Record<SanctionsListId, string> = {
  ofac_sdn: 'OFAC SDN',
  ofac_consolidated: 'OFAC Consolidated',
  un: 'UN',
  uk: 'UK',
  eu: 'EU',
};

/** A list's name as staff say it ("UN", "OFAC SDN"); an id the table does not know is shown as it is. */
export const listName = (list: string) => LIST_NAMES[list as SanctionsListId] ?? list;

export const LISTS_PATH = '/console/sanctions/lists';
export const versionPath = (versionId: string) => `${LISTS_PATH}/versions/${encodeURIComponent(versionId)}`;

type Instant = string | Date;

/**
 * A list version as the pages show it: the verbs' VersionView, or the lists view's last_change (typed by its
 * response schema, whose timestamps may be dates).
 */
export interface VersionFacts {
  version_id: string;
  list: string;
  published_on: string;
  previous_version_id: string | null;
  entities: number;
  accepted_at: Instant;
  fetched_at: Instant | null;
  added: number;
  changed: number;
  removed: number;
  screening: {
    started_at: Instant;
    total: number;
    screened: number;
    new_hits: number;
    phase: string | null;
    finished_at: Instant | null;
    seconds_to_last_player: number | null;
  } | null;
}

/** "The UN list version of 2026-12-01", linked to its page. */
export const versionLink = (v: { version_id: string; list: string; published_on: string }) =>
  html`<a href="${versionPath(v.version_id)}">${listName(v.list)} list version of ${v.published_on}</a>`;

/** A number of seconds as a person reads it: "42 s", "3 min 05 s", "2 h 07 min". */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** How far the screening of every player against a version went, in words (never colour alone). */
export function screeningState(v: VersionFacts): Html {
  const s = v.screening;
  if (!s) {
    return v.previous_version_id
      ? html`<span class="muted">none needed (nothing added or changed)</span>`
      : html`<span class="muted">none (the baseline)</span>`;
  }
  if (s.finished_at) return html`<span class="badge ok">finished</span> ${time(s.finished_at)}`;
  return html`<span class="badge pending">in progress</span> ${s.screened} of ${s.total} players`;
}

/** A version's screening as facts: started, players screened, new hits, finished and how long it took. */
export function screeningFacts(v: VersionFacts): Html {
  const s = v.screening;
  if (!s)
    return html`<dt>Screening of players</dt>
      <dd>${screeningState(v)}</dd>`;
  return html`<dt>Screening of players</dt>
    <dd>${screeningState(v)}</dd>
    <dt>Started</dt>
    <dd>${time(s.started_at)}</dd>
    <dt>Players screened</dt>
    <dd>
      ${s.screened} of
      ${s.total}${s.phase ? ` (${s.phase === 'walk' ? 'every player' : 'late screens'})` : ''}
    </dd>
    <dt>New hits</dt>
    <dd>${s.new_hits}</dd>
    <dt>Accepted to last player</dt>
    <dd>
      ${s.seconds_to_last_player === null ? html`<span class="muted">not finished</span>` : duration(s.seconds_to_last_player)}
    </dd>`;
}
