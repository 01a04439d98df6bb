import type { Static } from 'typebox';
import type { StaffExclusion } from '../../areas/exclusions/index.js';
import { command, get, id, type Command } from '../command.js';

function staffExclusion(e: Static<typeof StaffExclusion>): string {
  const proposal = e.pending_proposal;
  return [
    `${e.exclusion_id}  ${e.status}  ${e.duration}  ${e.origin}${e.tenant_id ? ` ${e.tenant_id}` : ''}`,
    e.voided_at
      ? `  voided at ${String(e.voided_at)} by ${e.voided_by}${e.void_confirmed_by ? `, confirmed by ${e.void_confirmed_by}` : ''}: ${e.void_reason}`
      : '',
    proposal
      ? `  void proposed by ${proposal.proposed_by} at ${String(proposal.proposed_at)}: ${proposal.reason}; awaiting a second member of staff`
      : '',
  ]
    .filter(Boolean)
    .join('\n');
}

export const EXCLUSION_COMMANDS: Record<string, Command> = {
  'exclusion show': command(
    'exclusion show <exclusion_id>',
    ([e]) => get(`/exclusions/${id(e!)}`),
    staffExclusion,
  ),
};
