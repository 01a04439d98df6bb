import type { Static } from 'typebox';
import type { DownloadReport } from '../platform/schemas.js';

/** Parsed command-line flags (`main.ts` declares them for `parseArgs`); each command reads the ones it needs. */
export type Flags = Record<string, string | boolean | undefined>;

export class UsageError extends Error {}

export interface BackofficeRequest {
  method: 'GET' | 'POST' | 'PUT';
  /** Relative to /backoffice/v1. */
  path: string;
  body?: object;
  /** The answer is a file (a report's or an export's content): print its bytes as they came. */
  raw?: boolean;
}

export interface Command {
  usage: string;
  /** How many positional arguments follow the command's name. */
  args: number;
  request(args: string[], flags: Flags): BackofficeRequest;
  summarize(body: never): string;
}

/** Positionals are the usage's `<...>` words that are not a flag's value, so help text and parsing agree. */
export function command<B>(
  usage: string,
  request: (args: string[], flags: Flags) => BackofficeRequest,
  summarize: (body: B) => string,
): Command {
  const words = usage.split(' ');
  const args = words.filter((w, i) => w.startsWith('<') && !/^\[?--/.test(words[i - 1] ?? '')).length;
  return { usage, args, request, summarize: summarize as (body: never) => string };
}

/** The service the CLI talks to: COMPLIANCE_URL, else the local default. */
export const serviceBaseUrl = () =>
  (process.env.COMPLIANCE_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');

export const get = (path: string): BackofficeRequest => ({ method: 'GET', path });
export const getFile = (path: string): BackofficeRequest => ({ method: 'GET', path, raw: true });
export const post = (path: string, body?: object): BackofficeRequest => ({ method: 'POST', path, body });
export const put = (path: string, body: object): BackofficeRequest => ({ method: 'PUT', path, body });

export const id = encodeURIComponent;

export function flag(flags: Flags, name: string): string | undefined {
  const value = flags[name];
  return typeof value === 'string' ? value : undefined;
}

export function required(flags: Flags, name: string): string {
  const value = flag(flags, name);
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}

export function oneOf<T extends string>(flags: Flags, name: string, allowed: readonly T[]): T {
  const value = required(flags, name);
  if (!allowed.includes(value as T)) throw new UsageError(`--${name} must be one of: ${allowed.join(', ')}`);
  return value as T;
}

export function wholeNumber(name: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

export function integer(flags: Flags, name: string): number | undefined {
  const value = flag(flags, name);
  return value === undefined ? undefined : wholeNumber(name, value);
}

export const limitQuery = (flags: Flags) =>
  flags.limit === undefined ? '' : `?limit=${integer(flags, 'limit')}`;

export const lines = (items: string[], none: string) => (items.length ? items.join('\n') : none);
/** An overdue queue, oldest-due first; a longer backlog continues in the back office from next_cursor. */
export const overdueLines = (items: string[], nextCursor: string | null, none: string) =>
  lines(nextCursor ? [...items, `(more: GET …?overdue=true&cursor=${nextCursor})`] : items, none);

export const download = (d: Static<typeof DownloadReport>) =>
  [
    `${d.source}  ${d.outcome ?? 'never checked'}`,
    d.version ? `version ${d.version}` : '',
    d.entities === null ? '' : `${d.entities} entities`,
    d.error ? `(${d.error})` : '',
  ]
    .filter(Boolean)
    .join('  ');
