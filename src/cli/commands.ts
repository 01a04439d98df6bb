import type { Static } from 'typebox';
import type {
  AuditEntry,
  ClockResponse,
  CreatedTenant,
  Delivery,
  EnqueuedEvent,
  IssuedKey,
  RevokedKey,
  RotatedSigningSecret,
  Tenant,
} from '../backoffice/backoffice.schemas.js';
import type { DeadLetter, DeadLetterEntry, StaffCasesPage } from '../areas/aml/aml.schemas.js';
import type { StaffExclusion } from '../areas/exclusions/exclusions.schemas.js';
import type { ListsFetchResponse, ListsStatus } from '../areas/sanctions/sanctions.lists.schemas.js';
import type { ReviewQueuePage } from '../areas/kyc/kyc.schemas.js';
import type { RescreenRuns, SanctionsCaseView, Screening } from '../areas/sanctions/sanctions.schemas.js';
import type { Alert, DownloadReport } from '../platform/schemas.js';
import type { RequeuedEvents } from '../platform/webhooks/webhooks.backoffice.routes.js';

/** Parsed command-line flags (`main.ts` declares them for `parseArgs`); each command reads the ones it needs. */
export type Flags = Record<string, string | boolean | undefined>;

export class UsageError extends Error {}

export interface BackofficeRequest {
  method: 'GET' | 'POST' | 'PUT';
  /** Relative to /backoffice/v1. */
  path: string;
  body?: object;
}

export interface Command {
  usage: string;
  /** How many positional arguments follow the command's name. */
  args: number;
  request(args: string[], flags: Flags): BackofficeRequest;
  summarize(body: never): string;
}

/** Positionals are the usage's `<...>` words that are not a flag's value, so help text and parsing agree. */
function command<B>(
  usage: string,
  request: (args: string[], flags: Flags) => BackofficeRequest,
  summarize: (body: B) => string,
): Command {
  const words = usage.split(' ');
  const args = words.filter((w, i) => w.startsWith('<') && !words[i - 1]?.startsWith('--')).length;
  return { usage, args, request, summarize: summarize as (body: never) => string };
}

const get = (path: string): BackofficeRequest => ({ method: 'GET', path });
const post = (path: string, body?: object): BackofficeRequest => ({ method: 'POST', path, body });
const put = (path: string, body: object): BackofficeRequest => ({ method: 'PUT', path, body });

const id = encodeURIComponent;

function flag(flags: Flags, name: string): string | undefined {
  const value = flags[name];
  return typeof value === 'string' ? value : undefined;
}

function required(flags: Flags, name: string): string {
  const value = flag(flags, name);
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}

function oneOf<T extends string>(flags: Flags, name: string, allowed: readonly T[]): T {
  const value = required(flags, name);
  if (!allowed.includes(value as T)) throw new UsageError(`--${name} must be one of: ${allowed.join(', ')}`);
  return value as T;
}

function wholeNumber(name: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

function integer(flags: Flags, name: string): number | undefined {
  const value = flag(flags, name);
  return value === undefined ? undefined : wholeNumber(name, value);
}

const limitQuery = (flags: Flags) => (flags.limit === undefined ? '' : `?limit=${integer(flags, 'limit')}`);

type Tenant = Static<typeof Tenant>;

function tenantSummary(t: Tenant): string {
  const limits = Object.entries(t.rate_limits).map(([k, v]) => `${k}=${v}`);
  return [
    `${t.tenant_id}  ${t.name}`,
    `  environment:   ${t.environment}`,
    `  status:        ${t.status}`,
    `  webhook url:   ${t.webhook_url ?? '(none)'}${t.webhook_disabled_at ? ` (disabled since ${String(t.webhook_disabled_at)})` : ''}`,
    `  cutover areas: ${t.cutover_areas.join(', ') || '(none)'}`,
    `  rate limits:   ${limits.join(', ') || '(defaults)'}`,
    `  created at:    ${String(t.created_at)}`,
  ].join('\n');
}

const enqueued = (e: Static<typeof EnqueuedEvent>) =>
  `Enqueued event ${e.event_id} (delivery ${e.delivery_status})`;
const clock = (c: Static<typeof ClockResponse>) => `Clock: ${String(c.now)}`;
const requeued = (r: Static<typeof RequeuedEvents>) =>
  `Queued ${r.requeued} undelivered event(s) of ${r.tenant_id} since ${String(r.since)} again, oldest first`;
const lines = (items: string[], none: string) => (items.length ? items.join('\n') : none);
/** An overdue queue, oldest-due first; a longer backlog continues in the back office from next_cursor. */
const overdueLines = (items: string[], nextCursor: string | null, none: string) =>
  lines(nextCursor ? [...items, `(more: GET …?overdue=true&cursor=${nextCursor})`] : items, none);

function createdTenant(t: Static<typeof CreatedTenant>): string {
  return [
    `Created tenant ${t.tenant_id} (${t.name})`,
    `  environment:    ${t.environment}`,
    `  API key:        ${t.api_key}`,
    `  signing secret: ${t.signing_secret}`,
    'The API key and signing secret are shown only once: store them now.',
  ].join('\n');
}

const tenant = (tenantId: string | undefined, rest = '') => `/tenants/${id(tenantId!)}${rest}`;
const areas = (flags: Flags) =>
  required(flags, 'areas')
    .trim()
    .split(/\s*,\s*/)
    .filter(Boolean);

function rateLimits(flags: Flags): object {
  const body = {
    default_per_minute: integer(flags, 'default'),
    exclusions_per_minute: integer(flags, 'exclusions'),
    aml_event_per_minute: integer(flags, 'aml-event'),
  };
  if (Object.values(body).every((v) => v === undefined)) {
    throw new UsageError('give at least one of --default, --exclusions, --aml-event');
  }
  return body;
}

const tenantAction = (action: string) =>
  command(`tenant ${action} <tenant_id>`, ([t]) => post(tenant(t, `/${action}`)), tenantSummary);

const download = (d: Static<typeof DownloadReport>) =>
  [
    `${d.source}  ${d.outcome ?? 'never checked'}`,
    d.version ? `version ${d.version}` : '',
    d.entities === null ? '' : `${d.entities} entities`,
    d.error ? `(${d.error})` : '',
  ]
    .filter(Boolean)
    .join('  ');

function listsSummary(status: Static<typeof ListsStatus>): string {
  const lists = status.lists.map(
    (l) =>
      `${l.list}  published ${l.published_on}  ${l.entities} entities  ${l.fetched_at ? `fetched ${String(l.fetched_at)}` : 'from the directory'}${l.stale ? '  STALE' : ''}`,
  );
  return [
    ...lists,
    ...(lists.length === 0 ? ['No list is loaded.'] : []),
    ...status.warnings.map((w) => `warning: ${w}`),
  ].join('\n');
}

type GeoDatabase = { download: Static<typeof DownloadReport> | null; files: string[] | null };

function staffExclusion(e: Static<typeof StaffExclusion>): string {
  const proposal = e.void_proposal;
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

export const COMMANDS: Record<string, Command> = {
  'tenant create': command(
    'tenant create --name <name> --env sandbox|live',
    (_, f) =>
      post('/tenants', { name: required(f, 'name'), environment: oneOf(f, 'env', ['sandbox', 'live']) }),
    createdTenant,
  ),
  'tenant list': command(
    'tenant list',
    () => get('/tenants'),
    ({ tenants }: { tenants: Tenant[] }) =>
      lines(
        tenants.map((t) => `${t.tenant_id}  ${t.environment}  ${t.status}  ${t.name}`),
        'No tenants.',
      ),
  ),
  'tenant show': command('tenant show <tenant_id>', ([t]) => get(tenant(t)), tenantSummary),
  'tenant suspend': tenantAction('suspend'),
  'tenant reinstate': tenantAction('reinstate'),
  'key create': command(
    'key create <tenant_id> --role standard|admin',
    ([t], f) => post(tenant(t, '/keys'), { role: oneOf(f, 'role', ['standard', 'admin']) }),
    (k: Static<typeof IssuedKey>) =>
      `Issued ${k.role} key ${k.key_prefix}: ${k.api_key}\nThe API key is shown only once: store it now.`,
  ),
  'key revoke': command(
    'key revoke <key_prefix>',
    ([prefix]) => post(`/keys/${id(prefix!)}/revoke`),
    (k: Static<typeof RevokedKey>) => `Revoked key ${k.key_prefix} at ${String(k.revoked_at)}`,
  ),
  'webhook set': command(
    'webhook set <tenant_id> --url <url>',
    ([t], f) => put(tenant(t, '/webhook'), { url: required(f, 'url') }),
    tenantSummary,
  ),
  'webhook ping': command('webhook ping <tenant_id>', ([t]) => post(tenant(t, '/webhook/ping')), enqueued),
  'webhook rotate-secret': command(
    'webhook rotate-secret <tenant_id> [--overlap-hours N]',
    ([t], f) => post(tenant(t, '/signing-secret/rotate'), { overlap_hours: integer(f, 'overlap-hours') }),
    (r: Static<typeof RotatedSigningSecret>) =>
      [
        `Rotated the signing secret of ${r.tenant_id}`,
        `  new signing secret: ${r.signing_secret}`,
        r.previous_secret_expires_at
          ? `  the old secret also signs every delivery until ${String(r.previous_secret_expires_at)}`
          : '  the old secret no longer signs',
        'The signing secret is shown only once: store it now.',
      ].join('\n'),
  ),
  'webhook deliveries': command(
    'webhook deliveries <tenant_id> [--limit N]',
    ([t], f) => get(tenant(t, `/webhook-deliveries${limitQuery(f)}`)),
    ({ deliveries }: { deliveries: Static<typeof Delivery>[] }) =>
      lines(
        deliveries.map((d) => `${d.event_id}  ${d.event}  ${d.delivery_status}  attempts=${d.attempt_count}`),
        'No deliveries.',
      ),
  ),
  'webhook redeliver': command(
    'webhook redeliver <tenant_id> --since <RFC 3339 time>',
    ([t], f) => post(tenant(t, '/webhook/redeliver'), { since: required(f, 'since') }),
    requeued,
  ),
  'webhook enable': command(
    'webhook enable <tenant_id>',
    ([t]) => post(tenant(t, '/webhook/enable')),
    requeued,
  ),
  'event redeliver': command(
    'event redeliver <event_id>',
    ([eventId]) => post(`/events/${id(eventId!)}/redeliver`),
    enqueued,
  ),
  'cutover set': command(
    'cutover set <tenant_id> --areas kyc,geo,sanctions  (--areas "" for none)',
    ([t], f) => put(tenant(t, '/cutover'), { areas: areas(f) }),
    tenantSummary,
  ),
  'rate-limits set': command(
    'rate-limits set <tenant_id> [--default N] [--exclusions N] [--aml-event N]',
    ([t], f) => put(tenant(t, '/rate-limits'), rateLimits(f)),
    tenantSummary,
  ),
  'audit-log': command(
    'audit-log <tenant_id> [--limit N]',
    ([t], f) => get(tenant(t, `/audit-log${limitQuery(f)}`)),
    ({ entries }: { entries: Static<typeof AuditEntry>[] }) =>
      lines(
        entries.map((e) => `${String(e.occurred_at)}  ${e.actor}  ${e.action}  ${e.request_id ?? '-'}`),
        'No audit entries.',
      ),
  ),
  'lists show': command('lists show', () => get('/sanctions/lists'), listsSummary),
  'lists fetch': command(
    'lists fetch',
    () => post('/sanctions/lists/fetch'),
    ({ downloads, lists: status }: Static<typeof ListsFetchResponse>) =>
      [...downloads.map(download), '', listsSummary(status)].join('\n'),
  ),
  'sanctions overdue': command(
    'sanctions overdue [--limit N]',
    (_, f) => get(`/sanctions/cases?overdue=true&limit=${integer(f, 'limit') ?? 100}`),
    ({ cases, next_cursor }: { cases: Static<typeof SanctionsCaseView>[]; next_cursor: string | null }) =>
      overdueLines(
        cases.map(
          (c) =>
            `${String(c.due_at)}  ${c.case_id}  ${c.tenant_id}  ${c.user_id}  opened ${String(c.opened_at)}`,
        ),
        next_cursor,
        'No overdue sanctions hits.',
      ),
  ),
  'sanctions rescreen-user': command(
    'sanctions rescreen-user <tenant_id> <user_id> --reason <text> --actor <staff member>',
    ([t, u], f) =>
      post(`/sanctions/tenants/${id(t!)}/users/${id(u!)}/rescreen`, {
        reviewer: required(f, 'actor'),
        reason: required(f, 'reason'),
      }),
    (s: Static<typeof Screening>) =>
      `${s.user_id}  ${s.status}  checked ${String(s.checked_at)}${s.case_id ? `  case ${s.case_id}` : ''}`,
  ),
  'sanctions rescreen-status': command(
    'sanctions rescreen-status',
    () => get('/sanctions/rescreen'),
    ({ runs }: Static<typeof RescreenRuns>) =>
      lines(
        runs.map(
          (r) =>
            `${r.quarter}  ${r.screened}/${r.total} screened  ${r.new_hits} new hits  ${r.skipped} skipped  ${r.finished_at ? `finished ${String(r.finished_at)}` : 'running'}`,
        ),
        'No quarterly re-screen has run.',
      ),
  ),
  'kyc overdue': command(
    'kyc overdue [--limit N]',
    (_, f) => get(`/kyc/reviews?overdue=true&limit=${integer(f, 'limit') ?? 100}`),
    ({ reviews, next_cursor }: Static<typeof ReviewQueuePage>) =>
      overdueLines(
        reviews.map(
          (r) => `${String(r.due_at)}  ${r.kyc_check_id}  ${r.tenant_id}  ${r.user_id}  ${r.required_tier}`,
        ),
        next_cursor,
        'No overdue KYC reviews.',
      ),
  ),
  'geoip show': command(
    'geoip show',
    () => get('/geo/database'),
    (g: GeoDatabase) =>
      `${g.files?.join(', ') ?? 'DB-IP Lite (shipped)'}\n${g.download ? download(g.download) : 'Not downloaded by the service.'}`,
  ),
  'geoip fetch': command(
    'geoip fetch',
    () => post('/geo/database/fetch'),
    (g: GeoDatabase) => (g.download ? download(g.download) : 'Nothing was downloaded.'),
  ),
  alerts: command(
    'alerts [--limit N]',
    (_, f) => get(`/alerts${limitQuery(f)}`),
    ({ alerts }: { alerts: Static<typeof Alert>[] }) =>
      lines(
        alerts.map((a) => `${String(a.raised_at)}  ${a.kind}  ${a.subject}  ${a.message}`),
        'No alerts.',
      ),
  ),
  'exclusion show': command(
    'exclusion show <exclusion_id>',
    ([e]) => get(`/exclusions/${id(e!)}`),
    staffExclusion,
  ),
  'exclusion void': command(
    'exclusion void <exclusion_id> --reason <text> --actor <staff member>',
    ([e], f) =>
      post(`/exclusions/${id(e!)}/void`, { reason: required(f, 'reason'), actor: required(f, 'actor') }),
    staffExclusion,
  ),
  'exclusion void-confirm': command(
    'exclusion void-confirm <exclusion_id> --actor <staff member>',
    ([e], f) => post(`/exclusions/${id(e!)}/void/confirm`, { actor: required(f, 'actor') }),
    staffExclusion,
  ),
  'aml overdue': command(
    'aml overdue [--limit N]',
    (_, f) => get(`/aml/cases?overdue=true&limit=${integer(f, 'limit') ?? 100}`),
    ({ cases, next_cursor }: Static<typeof StaffCasesPage>) =>
      lines(
        [
          ...cases.map(
            (c) =>
              `${String(c.due_at)}  ${c.case_id}  ${c.tenant_id}  ${c.status}  ${c.origin}  ${c.user_id}`,
          ),
          ...(next_cursor ? ['(more: raise --limit)'] : []),
        ],
        'No overdue AML cases.',
      ),
  ),
  'aml dead-letters': command(
    'aml dead-letters [--limit N]',
    (_, f) => get(`/aml/dead-letters${limitQuery(f)}`),
    ({ dead_letters }: { dead_letters: Static<typeof DeadLetterEntry>[] }) =>
      lines(
        dead_letters.map(
          (d) =>
            `${d.dead_letter_id}  ${String(d.dead_lettered_at)}  ${d.tenant_id}  ${d.event_type} ${d.transaction_id}  attempts=${d.attempts}  ${d.last_error}`,
        ),
        'No AML dead letters.',
      ),
  ),
  'aml redrive': command(
    'aml redrive <dead_letter_id> --reason <text> --actor <staff member>',
    ([d], f) =>
      post(`/aml/dead-letters/${id(d!)}/redrive`, {
        actor: required(f, 'actor'),
        reason: required(f, 'reason'),
      }),
    (d: Static<typeof DeadLetter>) =>
      `Re-drove ${d.dead_letter_id} (event ${d.event_id}) at ${String(d.redriven_at)}: queued for evaluation`,
  ),
  'clock show': command('clock show', () => get('/clock'), clock),
  'clock advance': command(
    'clock advance --seconds N',
    (_, f) => post('/clock/advance', { seconds: wholeNumber('seconds', required(f, 'seconds')) }),
    clock,
  ),
};
