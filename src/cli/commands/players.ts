import type { StaffErasureRequest } from '../../areas/players/index.js';
import type { ContactDataExport, PlayerDataExport } from '../../platform/data-export.schemas.js';
import { command, flag, id, post, type Command } from '../command.js';

/** A player's data protection requests (docs/data.md). */
export const PLAYER_COMMANDS: Record<string, Command> = {
  'players export': command(
    'players export <tenant_id> <user_id>',
    ([tenant, user]) => post(`/tenants/${id(tenant!)}/players/${id(user!)}/export`),
    // The document itself, as JSON: its summary is its first field a person reads.
    (document: PlayerDataExport) => JSON.stringify(document, null, 2),
  ),
  'contacts export': command(
    'contacts export [--email <email>] [--phone <phone>]',
    (_, f) => post('/contacts/export', { email: flag(f, 'email'), phone: flag(f, 'phone') }),
    (document: ContactDataExport) => JSON.stringify(document, null, 2),
  ),
  'players erase': command(
    'players erase <tenant_id> <user_id> --request <erasure_request_id>',
    ([tenant, user], f) =>
      post(`/tenants/${id(tenant!)}/players/${id(user!)}/erasure-requests`, {
        erasure_request_id: flag(f, 'request'),
      }),
    (request: StaffErasureRequest) =>
      [
        `Erasure request ${request.erasure_request_id}: ${request.status}`,
        ...request.data
          .filter((d) => d.records > 0 || d.in_force_records)
          .map(
            (d) =>
              `${d.table}: ${d.records} ${d.action}` +
              (d.in_force_records ? `, ${d.in_force_records} kept while in force` : '') +
              (d.kept_for ? ` (kept ${d.kept_for})` : ''),
          ),
      ].join('\n'),
  ),
};
