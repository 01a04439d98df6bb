import type { Platform } from '../../platform/context.js';
import { groupCommitOf } from '../../platform/group-commit.js';
import { canonicalEmail, contactHash, normaliseEmail, normalisePhone, type Contact } from './contact.js';
import * as store from './exclusions.store.js';

/**
 * Which contacts each tenant has shown the service. Knowing a contact is what entitles a tenant to learn of other
 * operators' and the regulator's exclusions of it (see docs/exclusions.md, "What each tenant learns"), so every
 * check, registration and KYC start records its contacts, as keyed hashes.
 */

/** Hashes this process knows are recorded (per tenant), so a contact shown again costs no write. */
const recorded = new WeakMap<Platform, Set<string>>();
const REMEMBERED_AT_MOST = 200_000;

const sightings = (platform: Platform) =>
  groupCommitOf(
    platform,
    'contact_sightings',
    async (rows: Array<{ tenantId: string; hash: string; at: Date }>) => {
      await store.recordSightings(platform.db, rows);
      return rows.map(() => undefined);
    },
  );

/** The keyed hashes of a normalised contact: the email's in its canonical form. */
export function hashesOf(
  platform: Platform,
  contact: Contact,
): { email: string | null; phone: string | null } {
  return {
    email:
      contact.email === null ? null : contactHash(platform.secrets, 'email', canonicalEmail(contact.email)),
    phone: contact.phone === null ? null : contactHash(platform.secrets, 'phone', contact.phone),
  };
}

/**
 * Records that the tenant has shown these contacts. Resolves once they are stored, so the request that showed a
 * contact answers only when the tenant is entitled to hear of it; concurrent requests share one write (group
 * commit), and a contact this process has recorded before costs nothing.
 */
export async function recordContactsShown(
  platform: Platform,
  tenantId: string,
  contacts: Contact[],
): Promise<void> {
  let known = recorded.get(platform);
  if (!known) recorded.set(platform, (known = new Set()));
  const fresh = new Set<string>();
  for (const contact of contacts) {
    const { email, phone } = hashesOf(platform, contact);
    for (const hash of [email, phone]) {
      if (hash !== null && !known.has(`${tenantId}:${hash}`)) fresh.add(hash);
    }
  }
  if (fresh.size === 0) return;
  const at = platform.clock.now();
  const writer = sightings(platform);
  await Promise.all([...fresh].map((hash) => writer.submit({ tenantId, hash, at })));
  if (known.size + fresh.size > REMEMBERED_AT_MOST) known.clear();
  for (const hash of fresh) known.add(`${tenantId}:${hash}`);
}

/** A register row's contact columns: as registered, the canonical email matched on, and the keyed hashes. */
export function contactColumns(platform: Platform, contact: Contact) {
  const { email, phone } = hashesOf(platform, contact);
  return {
    ...contact,
    email_canonical: contact.email === null ? null : canonicalEmail(contact.email),
    email_hash: email,
    phone_hash: phone,
  };
}

/** normalise, or null for a value the register could never match (it is then not a contact worth recording). */
const orNull = (normalise: (raw: string) => string, raw: string | undefined) => {
  if (raw === undefined) return null;
  try {
    return normalise(raw);
  } catch {
    return null;
  }
};

/**
 * For other areas' requests that carry a player's contacts (the KYC start): records what of them the register
 * could match. Never refuses the request: an email or phone the register cannot read is simply not recorded.
 */
export function recordContactsSent(
  platform: Platform,
  tenantId: string,
  sent: { email?: string | undefined; phone?: string | undefined },
): Promise<void> {
  const contact = { email: orNull(normaliseEmail, sent.email), phone: orNull(normalisePhone, sent.phone) };
  if (contact.email === null && contact.phone === null) return Promise.resolve();
  return recordContactsShown(platform, tenantId, [contact]);
}
