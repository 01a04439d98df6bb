import type { Static } from 'typebox';
import type { ListsFetchResponse, ListsStatus } from '../../areas/sanctions/sanctions.lists.schemas.js';
import type { RescreenRuns, SanctionsCaseView } from '../../areas/sanctions/sanctions.schemas.js';
import { command, download, get, integer, lines, overdueLines, post, type Command } from '../command.js';

function listsSummary(status: Static<typeof ListsStatus>): string {
  const lists = status.lists.map(
    (l) =>
      `${l.list}  published ${l.published_on}  ${l.entities} entities  ${l.fetched_at ? `fetched ${String(l.fetched_at)}` : 'from the directory'}${l.stale ? '  STALE' : ''}`,
  );
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
