import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PREFIX = 'enc:v1:';
export const KEY_FILE = 'secrets.key';

/** COMPLIANCE_SECRETS_KEY as given: 32 bytes, as 64 hex characters or base64. undefined when it is neither. */
export function parseSecretsKey(raw: string): Buffer | undefined {
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  return key.length === KEY_BYTES ? key : undefined;
}

/**
 * The embedded default's key: generated on the first start and kept beside the data (owner-only permissions), so
 * a copy of the database files alone does not carry it in the same file. A deployment on PostgreSQL configures its
 * own (COMPLIANCE_SECRETS_KEY), since a dump of the database must not be enough to read what the key protects.
 */
export function embeddedSecretsKey(dataDir: string): Buffer {
  const file = path.join(dataDir, KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(KEY_BYTES).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = parseSecretsKey(fs.readFileSync(file, 'utf8').trim());
  if (!key) throw new Error(`${file} does not hold a 32-byte key`);
  return key;
}

/**
 * The service's master key and what is derived from it: one sub-key per purpose (HKDF-SHA-256), so that the key
 * encrypting signing secrets never also keys the hashes of players' contacts.
 */
export class Secrets {
  private readonly derived = new Map<string, Buffer>();

  constructor(private readonly master: Buffer) {}

  key(purpose: string): Buffer {
    let key = this.derived.get(purpose);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', this.master, Buffer.alloc(0), purpose, KEY_BYTES));
      this.derived.set(purpose, key);
    }
    return key;
  }

  /**
   * HMAC-SHA-256 of a value under the purpose's key, its first 128 bits in hex: equal values give equal hashes, and
   * different ones collide with a chance of 2^-128 (half the width halves what an index of them costs).
   */
  hmac(purpose: string, value: string): string {
    return createHmac('sha256', this.key(purpose)).update(value).digest('hex').slice(0, 32);
  }

  /** AES-256-GCM with a random nonce: `enc:v1:` then base64 of nonce, tag and ciphertext. */
  encrypt(purpose: string, plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key(purpose), iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  decrypt(purpose: string, stored: string): string {
    if (!Secrets.isEncrypted(stored)) throw new Error('not an encrypted value');
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key(purpose), raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  }

  static isEncrypted(stored: string): boolean {
    return stored.startsWith(PREFIX);
  }
}
