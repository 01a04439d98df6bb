import type { Command } from './command.js';
import { AML_COMMANDS } from './commands/aml.js';
import { EXCLUSION_COMMANDS } from './commands/exclusions.js';
import { GEO_COMMANDS } from './commands/geo.js';
import { KYC_COMMANDS } from './commands/kyc.js';
import { MAIL_COMMANDS } from './commands/mail.js';
import { PLAYER_COMMANDS } from './commands/players.js';
import { REGULATOR_COMMANDS } from './commands/regulator.js';
import { REPORT_COMMANDS } from './commands/reports.js';
import { SANCTIONS_COMMANDS } from './commands/sanctions.js';
import { SECRETS_COMMANDS } from './commands/secrets.js';
import { ALERT_COMMANDS, CLOCK_COMMANDS } from './commands/service.js';
import { STAFF_COMMANDS } from './commands/staff.js';
import { TENANT_COMMANDS, TENANT_SETTINGS_COMMANDS } from './commands/tenants.js';
import { WEBHOOK_COMMANDS } from './commands/webhooks.js';

export { UsageError, type BackofficeRequest, type Command, type Flags } from './command.js';

/** Every command, one file of them per area under commands/; `compliance help` lists them in this order. */
export const COMMANDS: Record<string, Command> = {
  ...TENANT_COMMANDS,
  ...PLAYER_COMMANDS,
  ...WEBHOOK_COMMANDS,
  ...TENANT_SETTINGS_COMMANDS,
  ...SANCTIONS_COMMANDS,
  ...KYC_COMMANDS,
  ...GEO_COMMANDS,
  ...ALERT_COMMANDS,
  ...EXCLUSION_COMMANDS,
  ...AML_COMMANDS,
  ...STAFF_COMMANDS,
  ...MAIL_COMMANDS,
  ...SECRETS_COMMANDS,
  ...CLOCK_COMMANDS,
  ...REGULATOR_COMMANDS,
  ...REPORT_COMMANDS,
};
