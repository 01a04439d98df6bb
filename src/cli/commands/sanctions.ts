import type { Static } from 'typebox';
import type {
  ListsFetchResponse,
  ListsStatus,
  ListVersionDetail,
  ListVersions,
  ListVersionView,
  RescreenRuns,
  SanctionsCaseView,
} from '../../areas/sanctions/index.js';
import {
  command,
  download,
  flag,
  get,
  id,
  integer,
  lines,
  overdueLines,
  post,
  type Command,
} from '../command.js';

/** A list version in one line: what it changed, and how far the screening of every player against it went. */
function versionLine(v: Static<typeof ListVersionView>): string {
  const changes = v.previous_version_id
    ? `+${v.added} added  ~${v.changed} changed  -${v.removed} removed`
    : 'baseline (first version recorded)';
  const s = v.screening;
  const screening = !s
    ? 'nothing to screen'
    : s.finished_at
      ? `${s.screened} players screened, ${s.new_hits} new hits, last player ${s.seconds_to_last_player}s after acceptance`
      : `screening ${s.screened}/${s.total} (${s.phase})`;
  return `${v.version_id}  ${v.list}  published ${v.published_on}  accepted ${String(v.accepted_at)}  ${changes}  ${screening}`;
}

function listsSummary(status: Static<typeof ListsStatus>): string {
  const lists = status.lists.flatMap((l) => [
    `${l.list}  published ${l.published_on}  ${l.entities} entities  ${l.fetched_at ? `fetched ${String(l.fetched_at)}` : 'from the directory'}${l.stale ? '  STALE' : ''}`,
    ...(l.last_change ? [`  last change: ${versionLine(l.last_change)}`] : []),
  ]);
  return [
    ...lists,
    ...(lists.length === 0 ? ['No list is loaded.'] : []),
    ...status.warnings.map((w) => `warning: ${w}`),
  ].join('\n');
}

export const SANCTIONS_COMMANDS: Record<string, Command> = {
  'lists show': command('lists show', () => get('/sanctions/lists'), listsSummary),
  'lists fetch': command(
    'lists fetch',
    () => post('/sanctions/lists/fetch'),
    ({ downloads, lists: status }: Static<typeof ListsFetchResponse>) =>
      [...downloads.map(download), '', listsSummary(status)].join('\n'),
  ),
  'lists versions': command(
    'lists versions [--list L] [--limit N]',
    (_, f) => {
      const list = flag(f, 'list');
      return get(
        `/sanctions/lists/versions?limit=${integer(f, 'limit') ?? 20}${list ? `&list=${id(list)}` : ''}`,
      );
    },
    ({ versions }: Static<typeof ListVersions>) =>
      lines(versions.map(versionLine), 'No list version recorded.'),
  ),
  'lists version': command(
    'lists version <version_id>',
    ([versionId]) => get(`/sanctions/lists/versions/${id(versionId!)}`),
    (v: Static<typeof ListVersionDetail>) =>
      [
        versionLine(v),
        `added: ${v.entity_ids.added.join(' ') || '-'}`,
        `changed: ${v.entity_ids.changed.join(' ') || '-'}`,
        `removed: ${v.entity_ids.removed.join(' ') || '-'}`,
      ].join('\n'),
  ),
  'sanctions overdue': command(
    'sanctions overdue [--limit N]',
    (_, f) => get(`/sanctions/cases?overdue=true&limit=${integer(f, 'limit') ?? 100}`),
    ({ cases, next_cursor }: { cases: Static<typeof SanctionsCaseView>[]; next_cursor: string | null }) =>
      overdueLines(
        cases.map(
          (c) =>
            `${String(c.due_at)}  ${c.case_id}  ${c.tenant_id}  ${c.user_id}  opened ${String(c.opened_at)}`,
        ),
        next_cursor,
        'No overdue sanctions hits.',
      ),
  ),
  'sanctions rescreen-status': command(
    'sanctions rescreen-status',
    () => get('/sanctions/rescreen'),
    ({ runs }: Static<typeof RescreenRuns>) =>
      lines(
        runs.map(
          (r) =>
            `${r.quarter}  ${r.screened}/${r.total} screened  ${r.new_hits} new hits  ${r.skipped} skipped  ${r.finished_at ? `finished ${String(r.finished_at)}` : 'running'}`,
        ),
        'No quarterly re-screen has run.',
      ),
  ),
};
