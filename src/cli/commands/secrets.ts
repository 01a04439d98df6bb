import type { SecretsKeyStatus } from '../../platform/secrets.backoffice.routes.js';
import { command, get, type Command } from '../command.js';

/** The master keys and the progress of a rotation (docs/operations.md#rotating-the-master-key). */
export const SECRETS_COMMANDS: Record<string, Command> = {
  'secrets keys': command(
    'secrets keys',
    () => get('/secrets/keys'),
    (s: SecretsKeyStatus) =>
      [
        `current key ${s.current_key_id}; previous keys ${s.previous_key_ids.join(', ') || 'none'}`,
        ...s.stored.map(
          (v) => `  ${v.table}.${v.column}  ${v.format}${v.key_id ? ` ${v.key_id}` : ''}  ${v.values}`,
        ),
        s.values_to_reencrypt === 0
          ? 'Every stored value is under the current key: the previous keys can be removed.'
          : `${s.values_to_reencrypt} values still to re-encrypt: keep the previous keys.`,
      ].join('\n'),
  ),
};
