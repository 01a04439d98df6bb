import { parseArgs } from 'node:util';
import { serviceBaseUrl } from './command.js';
import { COMMANDS, UsageError, type BackofficeRequest, type Command, type Flags } from './commands.js';

const FLAGS = {
  name: { type: 'string' },
  env: { type: 'string' },
  role: { type: 'string' },
  url: { type: 'string' },
  limit: { type: 'string' },
  list: { type: 'string' },
  areas: { type: 'string' },
  origins: { type: 'string' },
  default: { type: 'string' },
  exclusions: { type: 'string' },
  'aml-event': { type: 'string' },
  seconds: { type: 'string' },
  'overlap-hours': { type: 'string' },
  since: { type: 'string' },
  reason: { type: 'string' },
  email: { type: 'string' },
  phone: { type: 'string' },
  'display-name': { type: 'string' },
  format: { type: 'string' },
  tenant: { type: 'string' },
  type: { type: 'string' },
  period: { type: 'string' },
  before: { type: 'string' },
  table: { type: 'string' },
  keep: { type: 'string' },
  request: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Exit codes: 1 when the service refused or could not be reached, 2 when the command line itself is wrong. */
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

function usage(): string {
  return [
    'Usage: compliance <command> [options]',
    '',
    'Commands:',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
    '  help',
    '',
    'Options:',
    '  --json     print the raw JSON response body',
    '  -h, --help show this text',
    '',
    'Environment:',
    `  COMPLIANCE_URL               service base URL (now ${serviceBaseUrl()})`,
    '  COMPLIANCE_BACKOFFICE_TOKEN  back-office token (required)',
  ].join('\n');
}

class HttpError extends Error {}

/** Finds the command named by the first one or two positionals and checks its argument count. */
function resolve(positionals: string[]): { command: Command; args: string[] } {
  const [first = '', second = ''] = positionals;
  const twoWords = COMMANDS[`${first} ${second}`];
  const command = twoWords ?? COMMANDS[first];
  if (!command) throw new UsageError(`unknown command: ${positionals.join(' ')}`);
  const args = positionals.slice(twoWords ? 2 : 1);
  if (args.length !== command.args) throw new UsageError(`usage: compliance ${command.usage}`);
  return { command, args };
}

function parse(argv: string[]): { positionals: string[]; flags: Flags } {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: FLAGS,
      allowPositionals: true,
      strict: true,
    });
    return { positionals, flags: values };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function settings(): { baseUrl: string; token: string } {
  const token = process.env.COMPLIANCE_BACKOFFICE_TOKEN;
  if (!token)
    throw new UsageError('COMPLIANCE_BACKOFFICE_TOKEN is not set; export the back-office token first');
  return { baseUrl: serviceBaseUrl(), token };
}

async function call(request: BackofficeRequest): Promise<unknown> {
  const { baseUrl, token } = settings();
  const url = `${baseUrl}/backoffice/v1${request.path}`;
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (request.body) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, { method: request.method, headers, body: JSON.stringify(request.body) });
  } catch (err) {
    const cause = (err as Error & { cause?: Error }).cause;
    throw new HttpError(`cannot reach ${baseUrl}: ${cause?.message ?? (err as Error).message}`);
  }
  const text = await response.text();
  if (request.raw && response.ok) return text;
  const body = parseBody(text);
  if (!response.ok) throw new HttpError(describeFailure(response.status, body, text));
  return body;
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describeFailure(status: number, body: unknown, text: string): string {
  const error = body as { error?: string; message?: string; request_id?: string } | undefined;
  if (!error?.error) return `HTTP ${status}: ${text.slice(0, 200)}`;
  return `${error.error}: ${error.message ?? ''} (request ${error.request_id ?? 'unknown'})`;
}

export async function run(argv: string[]): Promise<number> {
  try {
    const { positionals, flags } = parse(argv);
    if (flags.help || positionals[0] === 'help') {
      console.log(usage());
      return 0;
    }
    if (positionals.length === 0) throw new UsageError('no command given');
    const { command, args } = resolve(positionals);
    const request = command.request(args, flags);
    const body = await call(request);
    // A file goes out byte for byte (a CSV's CRLFs, no added newline), so its digest can be checked.
    if (request.raw) process.stdout.write(body as string);
    else console.log(flags.json ? JSON.stringify(body, null, 2) : command.summarize(body as never));
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`error: ${err.message}\nRun "compliance help" for the list of commands.`);
      return EXIT_USAGE;
    }
    if (err instanceof HttpError) {
      console.error(`error: ${err.message}`);
      return EXIT_FAILURE;
    }
    throw err;
  }
}

process.exitCode = await run(process.argv.slice(2));
