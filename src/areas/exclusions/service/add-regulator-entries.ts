import type { Platform, ServiceContext } from '../../../platform/context.js';
import { requestFingerprint } from '../../../platform/idempotency.js';
import { newId } from '../../../platform/ids.js';
import { withTransaction } from '../../../platform/service-context.js';
import { normaliseContact } from '../contact.js';
import { expiresAt, isPermanent } from '../exclusions.rules.js';
import { announce } from '../exclusions.events.js';
import { expireLapsed, scheduleExpiry } from '../exclusions.jobs.js';
import { contactColumns } from '../exclusions.sightings.js';
import type { RegulatorEntry, RegulatorResult } from '../exclusions.schemas.js';
import * as store from '../exclusions.store.js';

/**
 * Adds entries of the regulator's comprehensive form to the master list (staff only). Each row matches for every
 * tenant of its environment as `regulator_comprehensive`, and is announced with exclusion.regulator_synced to the
 * tenants that have shown its email or phone.
 * An entry identical (environment, duration, normalised email and phone) to an active master-list row is not
 * added again and not announced again: re-sending a form or an overlapping batch is safe.
 */
export async function addRegulatorEntries(
  platform: Platform,
  ctx: ServiceContext,
  entries: RegulatorEntry[],
): Promise<{ result: RegulatorResult; created: number }> {
  const now = ctx.clock.now();
  // Validate every entry before writing any: a batch is all or nothing.
  const prepared = entries.map((entry, index) => {
    const contact = normaliseContact(entry, `entries/${index}/`);
    const fields = { environment: entry.environment, duration: entry.duration, ...contact };
    return { ...fields, request_hash: requestFingerprint({ origin: 'regulator', ...fields }) };
  });
  const unique = [...new Map(prepared.map((entry) => [entry.request_hash, entry])).values()];
  const rows: store.NewExclusion[] = unique.map((entry) => ({
    ...entry,
    ...contactColumns(platform, entry),
    exclusion_id: newId('exclusion'),
    origin: 'regulator',
    channel: 'regulator',
    tenant_id: null,
    user_id: null,
    is_permanent: isPermanent(entry.duration),
    reason: null,
    initiated_at: null,
    effective_from: now,
    expires_at: expiresAt(entry.duration, now),
    regulator_propagated: true,
  }));

  return withTransaction(ctx, async (tx) => {
    const hashes = unique.map((entry) => entry.request_hash);
    await expireLapsed(tx, await store.lapsedRows(tx, { requestHashes: hashes }, now), now);
    const inserted = await store.insertRegulatorRows(tx, rows);
    const insertedHashes = new Set(inserted.map((row) => row.request_hash));
    const existing = await store.activeRegulatorRows(
      tx,
      hashes.filter((hash) => !insertedHashes.has(hash)),
    );

    for (const row of inserted) {
      await scheduleExpiry(tx, row);
      await announce(tx, { event: 'exclusion.regulator_synced', row, at: now });
    }

    const byHash = new Map([...existing, ...inserted].map((row) => [row.request_hash, row.exclusion_id]));
    return {
      result: {
        exclusions: prepared.map((entry) => ({
          exclusion_id: byHash.get(entry.request_hash)!,
          created: insertedHashes.has(entry.request_hash),
        })),
      },
      created: inserted.length,
    };
  });
}
