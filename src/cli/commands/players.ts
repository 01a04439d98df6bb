import type { PlayerDataExport } from '../../platform/data-export.schemas.js';
import { command, id, post, type Command } from '../command.js';

/** A player's data protection requests (docs/data.md). */
export const PLAYER_COMMANDS: Record<string, Command> = {
  'players export': command(
    'players export <tenant_id> <user_id>',
    ([tenant, user]) => post(`/tenants/${id(tenant!)}/players/${id(user!)}/export`),
    // The document itself, as JSON: its summary is its first field a person reads.
    (document: PlayerDataExport) => JSON.stringify(document, null, 2),
  ),
};
