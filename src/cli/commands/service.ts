import type { Static } from 'typebox';
import type { ClockResponse } from '../../backoffice/backoffice.schemas.js';
import type { Alert } from '../../platform/schemas.js';
import { command, get, limitQuery, lines, post, required, wholeNumber, type Command } from '../command.js';

const clock = (c: Static<typeof ClockResponse>) => `Clock: ${String(c.now)}`;

export const ALERT_COMMANDS: Record<string, Command> = {
  alerts: command(
    'alerts [--limit N]',
    (_, f) => get(`/alerts${limitQuery(f)}`),
    ({ alerts }: { alerts: Static<typeof Alert>[] }) =>
      lines(
        alerts.map((a) => `${String(a.raised_at)}  ${a.kind}  ${a.subject}  ${a.message}`),
        'No alerts.',
      ),
  ),
};

/** The test clock, where the deployment enables it. */
export const CLOCK_COMMANDS: Record<string, Command> = {
  'clock show': command('clock show', () => get('/clock'), clock),
  'clock advance': command(
    'clock advance --seconds N',
    (_, f) => post('/clock/advance', { seconds: wholeNumber('seconds', required(f, 'seconds')) }),
    clock,
  ),
};
