import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const V1 = 'enc:v1:';
const V2 = 'enc:v2:';
export const KEY_FILE = 'secrets.key';

/**
 * What each encrypted value is for: its sub-key (HKDF of the master key) and part of its additional authenticated
 * data, so a value sealed for one purpose never opens as another.
 */
export const SEALED_PURPOSES = {
  signingSecret: 'webhook-signing-secret',
  staffTotp: 'staff-totp',
  hashKey: 'hash-key',
} as const;
export type SealedPurpose = (typeof SEALED_PURPOSES)[keyof typeof SEALED_PURPOSES];

/** The keyed hashes, each under a key of its own that is stored (sealed) once, so a master-key rotation keeps them. */
export const HASH_PURPOSES = ['contact-hash', 'embed-code', 'pseudonym'] as const;
export type HashPurpose = (typeof HASH_PURPOSES)[number];

/** COMPLIANCE_SECRETS_KEY as given: 32 bytes, as 64 hex characters or base64. undefined when it is neither. */
export function parseSecretsKey(raw: string): Buffer | undefined {
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  return key.length === KEY_BYTES ? key : undefined;
}

/**
 * A master key's id: the first 64 bits of HMAC-SHA-256(key, "compliance secrets key id"), in hex. The same key has
 * the same id on every process without configuring one, two keys never share one in practice, and the id says
 * nothing about the key.
 */
export function secretsKeyId(key: Buffer): string {
  return createHmac('sha256', key).update('compliance secrets key id').digest('hex').slice(0, 16);
}

export interface MasterKey {
  id: string;
  key: Buffer;
}

/** The current master key, which seals every new value, and the previous ones, which only open old values. */
export class KeyRing {
  readonly current: MasterKey;
  readonly previous: readonly MasterKey[];

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    this.current = { id: secretsKeyId(current), key: current };
    const seen = new Set([this.current.id]);
    this.previous = previous
      .map((key) => ({ id: secretsKeyId(key), key }))
      .filter((k) => !seen.has(k.id) && seen.add(k.id));
  }

  get all(): readonly MasterKey[] {
    return [this.current, ...this.previous];
  }

  byId(id: string): MasterKey | undefined {
    return this.all.find((k) => k.id === id);
  }
}

/**
 * The embedded default's keys: generated on the first start and kept beside the data (owner-only permissions), so
 * a copy of the database files alone does not carry them in the same file. One key a line: the first is current,
 * the others previous (a rotation writes the new key above the old one). A deployment on PostgreSQL configures its
 * own (COMPLIANCE_SECRETS_KEY), since a dump of the database must not be enough to read what the keys protect.
 */
export function embeddedSecretsKeys(dataDir: string): { current: Buffer; previous: Buffer[] } {
  const file = path.join(dataDir, KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(KEY_BYTES).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const lines = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const keys = lines.map(parseSecretsKey);
  if (keys.length === 0 || keys.some((key) => !key)) {
    throw new Error(`${file} must hold 32-byte keys, one a line (the first is the current one)`);
  }
  const [current, ...previous] = keys as Buffer[];
  return { current: current!, previous };
}

/** A stored value that does not open: sealed for another row or purpose, altered, or under a key not configured. */
export class SealedValueError extends Error {}

/** What a stored value is: the sealed format with its key id, the format from before key ids, or plain text. */
export function sealedFormat(
  stored: string,
): { format: 'enc:v2'; keyId: string } | { format: 'enc:v1' } | { format: 'plaintext' } {
  if (stored.startsWith(V2)) return { format: 'enc:v2', keyId: stored.slice(V2.length).split(':', 1)[0]! };
  return stored.startsWith(V1) ? { format: 'enc:v1' } : { format: 'plaintext' };
}

/** The additional authenticated data of a value: its purpose and its row, so a copy elsewhere fails its tag. */
function additionalData(purpose: string, rowId: string): Buffer {
  if (purpose.includes('\0') || rowId.includes('\0')) throw new Error('a purpose or row id holds a NUL');
  return Buffer.from(`${V2}${purpose}\0${rowId}`, 'utf8');
}

/**
 * The master keys' uses: values encrypted at rest (AES-256-GCM under a per-purpose sub-key of a master key, bound
 * to their purpose and row) and keyed hashes (HMAC-SHA-256 under stored hash keys, see key-rotation.ts and ADR 0017).
 */
export class Secrets {
  private readonly subKeys = new Map<string, Buffer>();

  constructor(
    readonly ring: KeyRing,
    private readonly hashKeys: ReadonlyMap<HashPurpose, Buffer> = new Map(),
  ) {}

  /** HKDF-SHA-256 of a master key for one purpose: the sub-key that purpose's values are encrypted with. */
  static subKey(master: Buffer, purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), purpose, KEY_BYTES));
  }

  private key(master: MasterKey, purpose: string): Buffer {
    const name = `${master.id}\0${purpose}`;
    let key = this.subKeys.get(name);
    if (!key) {
      key = Secrets.subKey(master.key, purpose);
      this.subKeys.set(name, key);
    }
    return key;
  }

  /**
   * HMAC-SHA-256 of a value under the purpose's hash key, its first 128 bits in hex: equal values give equal hashes,
   * and different ones collide with a chance of 2^-128 (half the width halves what an index of them costs).
   */
  hmac(purpose: HashPurpose, value: string): string {
    const key = this.hashKeys.get(purpose);
    if (!key) throw new Error(`no hash key for ${purpose}`);
    return createHmac('sha256', key).update(value).digest('hex').slice(0, 32);
  }

  /**
   * The key of pseudonyms (a player's id, a name, once its record is pseudonymised: data-lifecycle.store.ts), which
   * the database applies itself, so it is handed to statements rather than used here.
   */
  pseudonymKey(): Buffer {
    const key = this.hashKeys.get('pseudonym');
    if (!key) throw new Error('no hash key for pseudonym');
    return key;
  }

  /**
   * AES-256-GCM under the current master key, with a random nonce and the purpose and row as additional data:
   * `enc:v2:<key id>:` then base64 of nonce, tag and ciphertext.
   */
  encrypt(purpose: SealedPurpose, rowId: string, plaintext: string): string {
    const master = this.ring.current;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key(master, purpose), iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(purpose, rowId));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${V2}${master.id}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  /**
   * The plaintext of a value sealed for this purpose and row. A value from before key ids (`enc:v1:`, no additional
   * data) opens under whichever configured key sealed it, until the re-encryption job rewrites it.
   */
  decrypt(purpose: SealedPurpose, rowId: string, stored: string): string {
    const sealed = sealedFormat(stored);
    if (sealed.format === 'plaintext') throw new SealedValueError('not an encrypted value');
    if (sealed.format === 'enc:v1') {
      const raw = Buffer.from(stored.slice(V1.length), 'base64');
      for (const master of this.ring.all) {
        const opened = this.open(this.key(master, purpose), raw, undefined);
        if (opened !== undefined) return opened;
      }
      throw new SealedValueError(`a value of ${purpose} (enc:v1) does not decrypt under any configured key`);
    }
    const master = this.ring.byId(sealed.keyId);
    if (!master)
      throw new SealedValueError(`a value is sealed under key ${sealed.keyId}, which is not configured`);
    const raw = Buffer.from(stored.slice(V2.length + sealed.keyId.length + 1), 'base64');
    const opened = this.open(this.key(master, purpose), raw, additionalData(purpose, rowId));
    if (opened === undefined) {
      throw new SealedValueError(`a value of ${purpose} does not decrypt for its row: moved, or altered`);
    }
    return opened;
  }

  /** How every value sealed under the current key in the current format begins: what the job leaves alone. */
  get currentPrefix(): string {
    return `${V2}${this.ring.current.id}:`;
  }

  /** True when the value is sealed under the current key in the current format: nothing for the job to do. */
  isCurrent(stored: string): boolean {
    return stored.startsWith(this.currentPrefix);
  }

  static isEncrypted(stored: string): boolean {
    return sealedFormat(stored).format !== 'plaintext';
  }

  /** The plaintext, or undefined when the tag does not verify. A tag of any length but 16 bytes never verifies. */
  private open(key: Buffer, raw: Buffer, aad: Buffer | undefined): string | undefined {
    if (raw.length < IV_BYTES + TAG_BYTES) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    if (aad) decipher.setAAD(aad);
    try {
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      return undefined;
    }
  }
}
