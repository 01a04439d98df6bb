import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { Platform } from './context.js';
import type { Executor } from './db/database.js';
import type { DB } from './db/schema.js';
import { scheduleJob } from './scheduler.js';
import { HASH_PURPOSES, type HashPurpose, type KeyRing, SEALED_PURPOSES, Secrets } from './secrets.js';
import {
  countStoredKeys,
  insertHashKey,
  lockStaleValues,
  oneLegacyValue,
  replaceSealedValue,
  SEALED_COLUMNS,
  selectHashKeys,
  type SealedColumn,
  type StoredKeys,
} from './secrets.store.js';

/** Rewrites every stored value that is not under the current master key (docs/operations.md#rotating-the-master-key). */
export const KEY_ROTATION_JOB = 'secrets.reencrypt';
/** A full batch means more may be stale: the next comes a second later, leaving the worker to other jobs meanwhile. */
const NEXT_BATCH_MS = 1000;
const RETRY_PASS_MS = 3_600_000;

/**
 * The secrets of this start, and how many stored values are not yet under the current key. Refuses to start when a
 * stored value is under a key the configuration lacks (naming its id), or when the values from before key ids open
 * under none; then loads the hash keys, storing them on the first start: exactly the sub-keys the hashes were made
 * with until then, so every stored hash stays valid (stored under the current key, they add nothing stale).
 */
export async function openSecrets(
  db: Executor,
  ring: KeyRing,
  now: Date,
): Promise<{ secrets: Secrets; stale: number }> {
  const stored = await countStoredKeys(db);
  const missing = [
    ...new Set(stored.filter((s) => s.key_id !== null && !ring.byId(s.key_id)).map((s) => s.key_id!)),
  ];
  if (missing.length > 0) {
    throw new Error(
      `Stored secrets are encrypted under key ${missing.join(', ')}, which is not configured (current key ${ring.current.id}): ` +
        'give it in COMPLIANCE_SECRETS_OLD_KEYS until the re-encryption job has moved every value to the current key',
    );
  }
  const sealer = new Secrets(ring);
  for (const sealed of SEALED_COLUMNS) {
    const legacy = await oneLegacyValue(db, sealed);
    if (!legacy || opens(sealer, sealed, legacy.row_id, legacy.value)) continue;
    throw new Error(
      `The ${sealed.table}.${sealed.column} values stored before key ids (enc:v1) decrypt under no configured key ` +
        `(current key ${ring.current.id}): start with the key they were encrypted with, as COMPLIANCE_SECRETS_KEY or in COMPLIANCE_SECRETS_OLD_KEYS`,
    );
  }
  return {
    secrets: new Secrets(ring, await hashKeys(db, sealer, now)),
    stale: staleValues(stored, ring.current.id),
  };
}

/** The purposes whose hashes were made before their keys were stored (a purpose added since has no hashes yet). */
const HASHED_BEFORE_STORED_KEYS: readonly HashPurpose[] = ['contact-hash', 'embed-code'];

async function hashKeys(db: Executor, sealer: Secrets, now: Date): Promise<Map<HashPurpose, Buffer>> {
  let rows = await selectHashKeys(db);
  const absent = HASH_PURPOSES.filter((purpose) => !rows.some((row) => row.purpose === purpose));
  if (absent.length > 0) {
    // The stored hashes were made under the key current before this release: with previous keys configured, which
    // key that was is a guess, and a wrong guess would silently break every lookup of the register.
    const guessed = absent.filter((purpose) => HASHED_BEFORE_STORED_KEYS.includes(purpose));
    if (sealer.ring.previous.length > 0 && guessed.length > 0) {
      throw new Error(
        `The hash keys (${guessed.join(', ')}) are not stored yet and previous keys are configured: start once with only ` +
          'the key in use until now (COMPLIANCE_SECRETS_KEY, no COMPLIANCE_SECRETS_OLD_KEYS), then rotate',
      );
    }
    for (const purpose of absent) {
      const key = Secrets.subKey(sealer.ring.current.key, purpose).toString('base64');
      const sealed_key = sealer.encrypt(SEALED_PURPOSES.hashKey, purpose, key);
      await insertHashKey(db, { purpose, sealed_key, created_at: now });
    }
    rows = await selectHashKeys(db);
  }
  return new Map(
    rows
      .filter((row): row is { purpose: HashPurpose; sealed_key: string } =>
        (HASH_PURPOSES as readonly string[]).includes(row.purpose),
      )
      .map((row) => [
        row.purpose,
        Buffer.from(sealer.decrypt(SEALED_PURPOSES.hashKey, row.purpose, row.sealed_key), 'base64'),
      ]),
  );
}

function opens(secrets: Secrets, sealed: SealedColumn, rowId: string, value: string): boolean {
  try {
    secrets.decrypt(sealed.purpose, rowId, value);
    return true;
  } catch {
    return false;
  }
}

/** Values not yet sealed under the current key (older keys, enc:v1, plain text). */
export const staleValues = (stored: StoredKeys[], current: string) =>
  stored.filter((s) => s.key_id !== current).reduce((sum, s) => sum + s.values, 0);

/**
 * The re-encryption job: each run rewrites at most a batch of values under the current key, in the scheduler's
 * transaction (its own short one), rows locked with SKIP LOCKED, and carries its place (a column and the last row
 * id) to the next run, a second later. At the end of a pass, values still stale (a row another transaction held, a
 * process on an older configuration, a value that opens under no key) bring a new pass an hour later. Every start
 * that found a stale value (`staleAtStart`, from openSecrets) starts a pass.
 */
export async function registerKeyRotation(platform: Platform, staleAtStart: number): Promise<void> {
  const { secrets, log } = platform;
  const batch = platform.config.secretsReencryptBatchSize;
  const current = secrets.ring.current.id;
  platform.scheduler.register(KEY_ROTATION_JOB, async (tx, job, now) => {
    const place = job.payload as { column?: number; after?: string | null };
    let column = place.column ?? 0;
    let after = place.after ?? null;
    let left = batch;
    while (column < SEALED_COLUMNS.length && left > 0) {
      const sealed = SEALED_COLUMNS[column]!;
      const rows = await lockStaleValues(tx, sealed, {
        currentPrefix: secrets.currentPrefix,
        after,
        limit: left,
      });
      let rewritten = 0;
      for (const row of rows) rewritten += await reseal(tx, secrets, log, sealed, row);
      if (rewritten > 0) {
        log.info(
          { values: rewritten, column: `${sealed.table}.${sealed.column}`, key_id: current },
          're-encrypted stored secrets under the current key',
        );
      }
      left -= rows.length;
      if (left > 0) [column, after] = [column + 1, null];
      else after = rows.at(-1)!.row_id;
    }
    if (column < SEALED_COLUMNS.length) {
      const dueAt = new Date(now.getTime() + NEXT_BATCH_MS);
      await scheduleJob(tx, { kind: KEY_ROTATION_JOB, subjectId: 'all', dueAt, payload: { column, after } });
      return;
    }
    const stale = staleValues(await countStoredKeys(tx), current);
    if (stale === 0) {
      log.info(
        { key_id: current },
        'every stored secret is under the current key: previous keys can be removed',
      );
      return;
    }
    log.warn(
      { values: stale, key_id: current },
      'stored secrets still not under the current key: another pass in an hour',
    );
    await scheduleJob(tx, {
      kind: KEY_ROTATION_JOB,
      subjectId: 'all',
      dueAt: new Date(now.getTime() + RETRY_PASS_MS),
    });
  });
  if (staleAtStart > 0) {
    await scheduleJob(platform.db, { kind: KEY_ROTATION_JOB, subjectId: 'all', dueAt: platform.clock.now() });
  }
}

/** Rewrites one value under the current key; a value that opens under no key is left as it is, and logged. */
async function reseal(
  tx: Transaction<DB>,
  secrets: Secrets,
  log: FastifyBaseLogger,
  sealed: SealedColumn,
  row: { row_id: string; value: string },
): Promise<number> {
  let plaintext: string;
  try {
    plaintext =
      sealed.legacyPlaintext && !Secrets.isEncrypted(row.value)
        ? row.value
        : secrets.decrypt(sealed.purpose, row.row_id, row.value);
  } catch {
    // Never the value or the cause's text. Replacing the value is the way out (docs/operations.md).
    log.error(
      { column: `${sealed.table}.${sealed.column}`, row_id: row.row_id },
      'a stored secret does not decrypt',
    );
    return 0;
  }
  const to = secrets.encrypt(sealed.purpose, row.row_id, plaintext);
  await replaceSealedValue(tx, sealed, { rowId: row.row_id, from: row.value, to });
  return 1;
}

/** Where the stored values stand: which key each is under, for the back office's progress read. */
export async function secretsKeyStatus(platform: Platform) {
  const stored = await countStoredKeys(platform.db);
  const { ring } = platform.secrets;
  return {
    current_key_id: ring.current.id,
    previous_key_ids: ring.previous.map((k) => k.id),
    stored,
    values_to_reencrypt: staleValues(stored, ring.current.id),
  };
}
