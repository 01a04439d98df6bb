import { audit } from './audit.js';
import type { Platform } from './context.js';
import { BASES, DATA_LIFECYCLE, type TableLifecycle } from './data-lifecycle.js';
import {
  EXPORT_ROWS_PER_TABLE,
  rowsOfContact,
  rowsOfPlayer,
  type ContactForms,
} from './data-export.store.js';
import type { ContactDataExport, ExportedTable, PlayerDataExport } from './data-export.schemas.js';
import { AppError } from './errors.js';
import { forTenant, withTransaction, type ServiceContext } from './service-context.js';
import { findTenant } from './tenants.store.js';

export type { ContactForms } from './data-export.store.js';

const kept = (t: TableLifecycle) =>
  t.keep === 'in_use'
    ? 'while the service uses it'
    : `${'years' in t.keep ? `${t.keep.years} years` : `${t.keep.days} days`} from ${t.from.replaceAll('_', ' ')}, then ${t.end === 'delete' ? 'deleted' : 'pseudonymised'}`;

/** Each table of the lifecycle that holds rows of the subject, read by `rowsOf`, with why and how long it is kept. */
async function exportedTables(
  rowsOf: (table: string, t: TableLifecycle) => Promise<Record<string, unknown>[]> | undefined,
): Promise<ExportedTable[]> {
  const data: ExportedTable[] = [];
  for (const [table, t] of Object.entries(DATA_LIFECYCLE)) {
    const rows = await rowsOf(table, t);
    if (!rows || rows.length === 0) continue;
    data.push({
      table,
      holds: t.holds,
      source: t.source,
      basis: BASES[t.basis],
      kept: kept(t),
      then: t.end,
      rows,
      truncated: rows.length === EXPORT_ROWS_PER_TABLE,
    });
  }
  return data;
}

/** A short account for a person: what kinds are held, how many records of each, and for how long. */
const summaryOf = (subject: string, generatedAt: string, data: ExportedTable[]) => [
  `Data held on ${generatedAt} about ${subject}: ${data.length} kinds, ${data.reduce((n, d) => n + d.rows.length, 0)} records.`,
  ...data.map((d) => `${d.holds}: ${d.rows.length} record${d.rows.length === 1 ? '' : 's'}, kept ${d.kept}.`),
];

/**
 * Everything held about one (tenant, user_id), as one JSON document with a short summary: each table the lifecycle
 * links to a player (DATA_LIFECYCLE's `player`), read the same way. Four-eyes-free but audited
 * (player.data_exported, with the tables exported and no data). A player of whom nothing is held is 404
 * player_not_found, in the spec's error shape.
 */
export async function exportPlayerData(
  platform: Pick<Platform, 'db' | 'clock'>,
  ctx: ServiceContext,
  tenantId: string,
  userId: string,
): Promise<PlayerDataExport> {
  if (!(await findTenant(platform.db, tenantId)))
    throw new AppError('tenant_not_found', `No tenant ${tenantId}`);
  return withTransaction(forTenant(ctx, tenantId), async (tx, ctx) => {
    const data = await exportedTables(
      (table, t) => t.player && rowsOfPlayer(tx, table, t.player, tenantId, userId),
    );
    if (data.length === 0)
      throw new AppError('player_not_found', `Nothing is held about user ${userId} of tenant ${tenantId}`);
    await audit(tx, ctx, 'player.data_exported', { user_id: userId, tables: data.map((d) => d.table) });
    const generatedAt = ctx.clock.now().toISOString();
    return {
      tenant_id: tenantId,
      user_id: userId,
      generated_at: generatedAt,
      summary: summaryOf(`user ${userId} of tenant ${tenantId}`, generatedAt, data),
      data,
      not_tied_to_a_player: Object.entries(DATA_LIFECYCLE)
        .filter(([, t]) => t.player === undefined && t.personal.some((p) => p !== 'staff'))
        .map(([table, t]) => ({ table, holds: t.holds, personal: [...t.personal] })),
    };
  });
}

/**
 * Everything held about one email or phone (the register's contact), across tenants, as one JSON document: each
 * table the lifecycle links to a contact (DATA_LIFECYCLE's `contact`), matched on every form the contact is stored
 * in (as given, canonical, keyed hash). The caller gives those forms (the exclusions area makes them). Audited at the
 * service level (contact.data_exported) with the contact's keyed hashes, never the contact. Nothing held: 404
 * contact_not_found.
 */
export async function exportContactData(
  ctx: ServiceContext,
  contact: { email: string | null; phone: string | null; forms: ContactForms },
): Promise<ContactDataExport> {
  return withTransaction(forTenant(ctx, null), async (tx, ctx) => {
    const linkOf = (table: string) => DATA_LIFECYCLE[table as keyof typeof DATA_LIFECYCLE]?.contact;
    const data = await exportedTables(
      (table, t) => t.contact && rowsOfContact(tx, table, t.contact, contact.forms, linkOf),
    );
    const subject = [contact.email, contact.phone].filter(Boolean).join(' and ');
    if (data.length === 0) throw new AppError('contact_not_found', `Nothing is held about ${subject}`);
    await audit(tx, ctx, 'contact.data_exported', {
      email_hash: contact.forms.email_hash ?? null,
      phone_hash: contact.forms.phone_hash ?? null,
      tables: data.map((d) => d.table),
    });
    const generatedAt = ctx.clock.now().toISOString();
    return {
      email: contact.email,
      phone: contact.phone,
      generated_at: generatedAt,
      summary: summaryOf(subject, generatedAt, data),
      data,
    };
  });
}
