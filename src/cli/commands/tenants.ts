import type { Static } from 'typebox';
import type { RetentionSettings } from '../../platform/retention.schemas.js';
import type {
  AuditEntry,
  CreatedTenant,
  IssuedKey,
  RevokedKey,
  Tenant,
} from '../../backoffice/backoffice.schemas.js';
import {
  command,
  get,
  id,
  integer,
  limitQuery,
  lines,
  oneOf,
  post,
  put,
  required,
  UsageError,
  type Command,
  type Flags,
} from '../command.js';

type Tenant = Static<typeof Tenant>;

/** A retention period as typed: 7y, 90d, or default (the tenant's override cleared). */
function keep(value: string): { years: number } | { days: number } | null {
  if (value === 'default') return null;
  const match = /^([1-9][0-9]*)([yd])$/.exec(value);
  if (!match) throw new UsageError(`--keep takes years (7y), days (90d) or default, not ${value}`);
  return match[2] === 'y' ? { years: Number(match[1]) } : { days: Number(match[1]) };
}

const period = (p: { years: number } | { days: number } | null) =>
  p === null ? '-' : 'years' in p ? `${p.years}y` : `${p.days}d`;

/** Each table kept for a time: what is in force, its default and the tenant's bounds (none: not the tenant's). */
function retentionSummary({ tables }: Static<typeof RetentionSettings>): string {
  return lines(
    tables.map((r) =>
      [
        r.table.padEnd(26),
        `in force ${period(r.in_force)}`.padEnd(14),
        `default ${period(r.default)}`.padEnd(13),
        r.overridable ? `bounds ${period(r.shortest)}..${period(r.longest)}` : 'fixed',
      ].join('  '),
    ),
    'No tables.',
  );
}

/** A tenant as the staff read it, after every command that changes one. */
export function tenantSummary(t: Tenant): string {
  const limits = Object.entries(t.rate_limits).map(([k, v]) => `${k}=${v}`);
  return [
    `${t.tenant_id}  ${t.name}`,
    `  environment:   ${t.environment}`,
    `  status:        ${t.status}`,
    `  webhook url:   ${t.webhook_url ?? '(none)'}${t.webhook_disabled_at ? ` (disabled since ${String(t.webhook_disabled_at)})` : ''}`,
    `  cutover areas: ${t.cutover_areas.join(', ') || '(none)'}`,
    `  rate limits:   ${limits.join(', ') || '(defaults)'}`,
    `  embed origins: ${t.embed_origins.join(', ') || '(none: embeds cannot be framed)'}`,
    `  created at:    ${String(t.created_at)}`,
  ].join('\n');
}

function createdTenant(t: Static<typeof CreatedTenant>): string {
  return [
    `Created tenant ${t.tenant_id} (${t.name})`,
    `  environment:    ${t.environment}`,
    `  API key:        ${t.api_key}`,
    `  signing secret: ${t.signing_secret}`,
    'The API key and signing secret are shown only once: store them now.',
  ].join('\n');
}

/** The back-office path of a tenant, or of what belongs to it. */
export const tenant = (tenantId: string | undefined, rest = '') => `/tenants/${id(tenantId!)}${rest}`;

/** A comma-separated flag as a list; "" is the empty list. */
const list = (flags: Flags, name: string) =>
  required(flags, name)
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

export const TENANT_COMMANDS: Record<string, Command> = {
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
};

/** A tenant's settings and its audit log. */
export const TENANT_SETTINGS_COMMANDS: Record<string, Command> = {
  'cutover set': command(
    'cutover set <tenant_id> --areas kyc,geo,sanctions  (--areas "" for none)',
    ([t], f) => put(tenant(t, '/cutover'), { areas: list(f, 'areas') }),
    tenantSummary,
  ),
  'rate-limits set': command(
    'rate-limits set <tenant_id> [--default N] [--exclusions N] [--aml-event N]',
    ([t], f) => put(tenant(t, '/rate-limits'), rateLimits(f)),
    tenantSummary,
  ),
  'embed-origins set': command(
    'embed-origins set <tenant_id> --origins https://a.example,https://b.example  (--origins "" for none)',
    ([t], f) => put(tenant(t, '/embed-origins'), { origins: list(f, 'origins') }),
    tenantSummary,
  ),
  'retention show': command(
    'retention show <tenant_id>',
    ([t]) => get(tenant(t, '/retention')),
    retentionSummary,
  ),
  'retention set': command(
    'retention set <tenant_id> --table <table> --keep 7y|90d|default',
    ([t], f) =>
      put(tenant(t, '/retention'), { overrides: { [required(f, 'table')]: keep(required(f, 'keep')) } }),
    retentionSummary,
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
};
