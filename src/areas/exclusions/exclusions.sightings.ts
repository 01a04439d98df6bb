import type { Platform } from '../../platform/context.js';
import { canonicalEmail, contactHash, normaliseEmail, normalisePhone, type Contact } from './contact.js';
import * as store from './exclusions.store.js';

/**
 * Which contacts each tenant has shown the service. Knowing a contact is what entitles a tenant to learn of other
 * operators' and the regulator's exclusions of it (see docs/exclusions.md, "What each tenant learns"), so every
 * check, registration and KYC start records its contacts, as keyed hashes.
 */

/**
 * A contact counts as shown within this long of the request that showed it (the issue allows a second). Short, so
 * that a buffered sighting is written before the young-generation collections that would promote it.
 */
export const SIGHTING_FLUSH_MS = 50;
const REMEMBERED_AT_MOST = 100_000;
const ROWS_PER_STATEMENT = 5_000;

/**
 * The sightings of one process not yet written (per tenant, the hashes), and the hashes it knows are written. The
 * live check only adds to the buffer: at 3,000 checks a second of new contacts, a statement every 50 ms writes them
 * all, where a statement per check (even group-committed) doubled the database's work on the hot path.
 */
class SightingBuffer {
  private pending = new Map<string, Set<string>>();
  private pendingCount = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private readonly known = new Map<string, Set<string>>();
  private knownCount = 0;

  constructor(private readonly platform: Platform) {}

  /** Adds what is not known yet; resolves at once unless `written`, then once the rows are stored. */
  add(tenantId: string, hashes: string[], written: boolean): Promise<void> {
    const known = this.known.get(tenantId);
    let pending = this.pending.get(tenantId);
    for (const hash of hashes) {
      if (known?.has(hash) || pending?.has(hash)) continue;
      if (!pending) this.pending.set(tenantId, (pending = new Set()));
      pending.add(hash);
      this.pendingCount++;
    }
    if (written) return this.flush();
    // A failed flush is logged there; the contacts count as shown again the next time they are sent.
    if (this.pendingCount > 0)
      this.timer ??= setTimeout(() => this.flush().catch(() => {}), SIGHTING_FLUSH_MS);
    return Promise.resolve();
  }

  /** Writes everything pending; one flush at a time, so a caller waiting for its rows waits for the flush holding them. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    const count = this.pendingCount;
    this.pending = new Map();
    this.pendingCount = 0;
    const run = this.flushing.then(async () => {
      if (count === 0) return;
      const tenantIds: string[] = [];
      const hashes: string[] = [];
      for (const [tenantId, set] of batch) {
        for (const hash of set) {
          tenantIds.push(tenantId);
          hashes.push(hash);
        }
      }
      try {
        for (let from = 0; from < count; from += ROWS_PER_STATEMENT) {
          await store.recordSightings(this.platform.db, {
            tenantIds: tenantIds.slice(from, from + ROWS_PER_STATEMENT),
            hashes: hashes.slice(from, from + ROWS_PER_STATEMENT),
            at: this.platform.clock.now(),
          });
        }
      } catch (error) {
        this.platform.log.error({ err: error, sightings: count }, 'contact sightings not recorded');
        throw error;
      }
      if (this.knownCount + count > REMEMBERED_AT_MOST) {
        this.known.clear();
        this.knownCount = 0;
      }
      for (const [tenantId, set] of batch) {
        const known = this.known.get(tenantId);
        if (known) for (const hash of set) known.add(hash);
        else this.known.set(tenantId, set);
      }
      this.knownCount += count;
    });
    this.flushing = run.catch(() => {});
    return run;
  }
}

const buffers = new WeakMap<Platform, SightingBuffer>();
const bufferOf = (platform: Platform) => {
  let buffer = buffers.get(platform);
  if (!buffer) buffers.set(platform, (buffer = new SightingBuffer(platform)));
  return buffer;
};

/** Writes the sightings still buffered (at shutdown). */
export function flushSightings(platform: Platform): Promise<void> {
  return buffers.get(platform)?.flush() ?? Promise.resolve();
}

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
 * Records that the tenant has shown these contacts. With `written`, resolves once they are stored (a
 * registration, a batch check, a KYC start answer only then); without, within SIGHTING_FLUSH_MS (the live check).
 */
export function recordContactsShown(
  platform: Platform,
  tenantId: string,
  contacts: Contact[],
  options: { written: boolean } = { written: true },
): Promise<void> {
  const hashes: string[] = [];
  for (const contact of contacts) {
    const { email, phone } = hashesOf(platform, contact);
    if (email !== null) hashes.push(email);
    if (phone !== null) hashes.push(phone);
  }
  return bufferOf(platform).add(tenantId, hashes, options.written);
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
