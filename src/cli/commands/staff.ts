import type { Static } from 'typebox';
import { STAFF_ROLES } from '../../staff/staff.rules.js';
import type { StaffAccount, StaffWithSetupLink } from '../../staff/staff.schemas.js';
import {
  command,
  flag,
  get,
  id,
  lines,
  oneOf,
  post,
  required,
  serviceBaseUrl,
  type Command,
} from '../command.js';

type Account = Static<typeof StaffAccount>;

const account = (a: Account) => `${a.staff_id}  ${a.role}  ${a.status}  ${a.email}  (${a.display_name})`;

const withLink = (a: Static<typeof StaffWithSetupLink>) =>
  [
    account(a),
    `One-time setup link (password and authenticator), until ${String(a.setup_link_expires_at)}:`,
    `  ${serviceBaseUrl()}${a.setup_path}`,
    'The link is shown only once: hand it to its holder now.',
  ].join('\n');

/** The service's staff accounts: named people with a role (docs/console.md). */
export const STAFF_COMMANDS: Record<string, Command> = {
  'staff create': command(
    `staff create --email <email> --role ${STAFF_ROLES.join('|')} [--display-name <name>]`,
    (_, f) => {
      const email = required(f, 'email');
      return post('/staff', {
        email,
        display_name: flag(f, 'display-name') ?? email.split('@')[0],
        role: oneOf(f, 'role', STAFF_ROLES),
      });
    },
    withLink,
  ),
  'staff list': command(
    'staff list',
    () => get('/staff'),
    ({ staff }: { staff: Account[] }) => lines(staff.map(account), 'No staff accounts.'),
  ),
  'staff disable': command('staff disable <staff_id>', ([s]) => post(`/staff/${id(s!)}/disable`), account),
  'staff setup-link': command(
    'staff setup-link <staff_id>',
    ([s]) => post(`/staff/${id(s!)}/setup-link`),
    withLink,
  ),
};
