import type { Static } from 'typebox';
import type { StaffAccount } from '../../staff/index.js';
import { command, flag, get, lines, oneOf, post, required, type Command } from '../command.js';

type Account = Static<typeof StaffAccount>;

const account = (a: Account) => `${a.staff_id}  ${a.role}  ${a.status}  ${a.email}  (${a.display_name})`;

const invited = (a: Account) =>
  `${account(a)}\nThe one-time setup link (password and authenticator) is mailed to ${a.email}.`;

/**
 * The service's staff accounts: named people with a role (docs/console.md). With the back-office token the CLI
 * creates only a deployment's first two admins; every other change of an account is an admin's, in the console.
 */
export const STAFF_COMMANDS: Record<string, Command> = {
  'staff create': command(
    'staff create --email <email> --role admin [--display-name <name>]',
    (_, f) => {
      const email = required(f, 'email');
      return post('/staff', {
        email,
        display_name: flag(f, 'display-name') ?? email.split('@')[0],
        role: oneOf(f, 'role', ['admin']),
      });
    },
    invited,
  ),
  'staff list': command(
    'staff list',
    () => get('/staff'),
    ({ staff }: { staff: Account[] }) => lines(staff.map(account), 'No staff accounts.'),
  ),
};
