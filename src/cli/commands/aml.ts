import type { Static } from 'typebox';
import type { DeadLetter, DeadLetterEntry, StaffCasesPage } from '../../areas/aml/index.js';
import { command, get, id, integer, limitQuery, lines, post, required, type Command } from '../command.js';

export const AML_COMMANDS: Record<string, Command> = {
  'aml overdue': command(
    'aml overdue [--limit N]',
    (_, f) => get(`/aml/cases?overdue=true&limit=${integer(f, 'limit') ?? 100}`),
    ({ cases, next_cursor }: Static<typeof StaffCasesPage>) =>
      lines(
        [
          ...cases.map(
            (c) =>
              `${String(c.due_at)}  ${c.case_id}  ${c.tenant_id}  ${c.status}  ${c.origin}  ${c.user_id}`,
          ),
          ...(next_cursor ? ['(more: raise --limit)'] : []),
        ],
        'No overdue AML cases.',
      ),
  ),
  'aml dead-letters': command(
    'aml dead-letters [--limit N]',
    (_, f) => get(`/aml/dead-letters${limitQuery(f)}`),
    ({ dead_letters }: { dead_letters: Static<typeof DeadLetterEntry>[] }) =>
      lines(
        dead_letters.map(
          (d) =>
            `${d.dead_letter_id}  ${String(d.dead_lettered_at)}  ${d.tenant_id}  ${d.event_type} ${d.transaction_id}  attempts=${d.attempts}  ${d.last_error}`,
        ),
        'No AML dead letters.',
      ),
  ),
  'aml redrive': command(
    'aml redrive <dead_letter_id> --reason <text>',
    ([d], f) => post(`/aml/dead-letters/${id(d!)}/redrive`, { reason: required(f, 'reason') }),
    (d: Static<typeof DeadLetter>) =>
      `Re-drove ${d.dead_letter_id} (event ${d.event_id}) at ${String(d.redriven_at)}: queued for evaluation`,
  ),
};
