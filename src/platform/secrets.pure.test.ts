import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyRing, SealedValueError, Secrets, secretsKeyId, sealedFormat } from './secrets.js';

const K1 = Buffer.alloc(32, 1);
const K2 = Buffer.alloc(32, 2);
const PURPOSE = 'webhook-signing-secret';

/** A value as the release before key ids wrote it: `enc:v1:`, no additional data, under one key's sub-key. */
function sealedV1(master: Buffer, purpose: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Secrets.subKey(master, purpose), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return 'enc:v1:' + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** The parts of an enc:v2 value: its key id and its raw nonce | tag | ciphertext. */
function parts(stored: string) {
  const [, , keyId, body] = stored.split(':');
  return { keyId: keyId!, raw: Buffer.from(body!, 'base64') };
}

describe('sealed values: the format', () => {
  const secrets = new Secrets(new KeyRing(K1));

  it('names the key that sealed it: enc:v2:<key id>:<nonce | 16-byte tag | ciphertext>', () => {
    const stored = secrets.encrypt(PURPOSE, 'ten_a', 'whsec_abc');
    const { keyId, raw } = parts(stored);
    expect(keyId).toBe(secretsKeyId(K1));
    expect(keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(raw.length).toBe(12 + 16 + 'whsec_abc'.length);
    expect(sealedFormat(stored)).toEqual({ format: 'enc:v2', keyId });
    expect(secrets.decrypt(PURPOSE, 'ten_a', stored)).toBe('whsec_abc');
    expect(secrets.isCurrent(stored)).toBe(true);
  });

  it('gives each key an id of its own, the same on every process, that is not the key', () => {
    expect(secretsKeyId(K1)).toBe(secretsKeyId(Buffer.from(K1)));
    expect(secretsKeyId(K1)).not.toBe(secretsKeyId(K2));
    expect(K1.toString('hex')).not.toContain(secretsKeyId(K1));
  });

  it('does not open for another row or another purpose: the additional data binds both', () => {
    const stored = secrets.encrypt(PURPOSE, 'ten_a', 'whsec_abc');
    expect(() => secrets.decrypt(PURPOSE, 'ten_b', stored)).toThrow(SealedValueError);
    expect(() => secrets.decrypt('staff-totp', 'ten_a', stored)).toThrow(SealedValueError);
    expect(() => secrets.decrypt(PURPOSE, 'ten_a', stored)).not.toThrow();
  });

  it('refuses a tag cut short, a flipped bit and a value too short to hold a tag', () => {
    const stored = secrets.encrypt(PURPOSE, 'ten_a', 'whsec_abc');
    const { keyId, raw } = parts(stored);
    const as = (bytes: Buffer) => `enc:v2:${keyId}:${bytes.toString('base64')}`;
    // A 12-byte tag (GCM allows it, we do not): the last 4 tag bytes dropped, the ciphertext shifted up.
    const shortTag = Buffer.concat([raw.subarray(0, 24), raw.subarray(28)]);
    const flipped = Buffer.from(raw);
    flipped[raw.length - 1]! ^= 1;
    for (const bad of [as(shortTag), as(flipped), as(raw.subarray(0, 27)), as(Buffer.alloc(0))]) {
      expect(() => secrets.decrypt(PURPOSE, 'ten_a', bad)).toThrow(SealedValueError);
    }
  });

  it('names the missing key when a value was sealed under a key the ring lacks', () => {
    const other = new Secrets(new KeyRing(K2)).encrypt(PURPOSE, 'ten_a', 'whsec_abc');
    expect(() => secrets.decrypt(PURPOSE, 'ten_a', other)).toThrow(
      `a value is sealed under key ${secretsKeyId(K2)}, which is not configured`,
    );
  });
});

describe('sealed values: key rotation', () => {
  it('seals under the current key and opens values of the previous ones', () => {
    const before = new Secrets(new KeyRing(K1)).encrypt(PURPOSE, 'ten_a', 'whsec_abc');
    const rotated = new Secrets(new KeyRing(K2, [K1]));
    expect(rotated.isCurrent(before)).toBe(false);
    expect(rotated.decrypt(PURPOSE, 'ten_a', before)).toBe('whsec_abc');
    const after = rotated.encrypt(PURPOSE, 'ten_a', 'whsec_abc');
    expect(parts(after).keyId).toBe(secretsKeyId(K2));
    expect(new Secrets(new KeyRing(K2)).decrypt(PURPOSE, 'ten_a', after)).toBe('whsec_abc');
  });

  it('opens a value from before key ids under whichever configured key sealed it', () => {
    const legacy = sealedV1(K1, PURPOSE, 'whsec_old');
    expect(sealedFormat(legacy)).toEqual({ format: 'enc:v1' });
    expect(new Secrets(new KeyRing(K1)).decrypt(PURPOSE, 'any row', legacy)).toBe('whsec_old');
    expect(new Secrets(new KeyRing(K2, [K1])).decrypt(PURPOSE, 'any row', legacy)).toBe('whsec_old');
    expect(() => new Secrets(new KeyRing(K2)).decrypt(PURPOSE, 'any row', legacy)).toThrow(SealedValueError);
    expect(() => new Secrets(new KeyRing(K1)).decrypt('staff-totp', 'any row', legacy)).toThrow(
      SealedValueError,
    );
  });

  it('keeps the keyed hashes of the hash keys it is given, whatever the master key', () => {
    const hashKey = new Map([['contact-hash' as const, Buffer.alloc(32, 9)]]);
    const a = new Secrets(new KeyRing(K1), hashKey).hmac('contact-hash', 'email:a@example.com');
    const b = new Secrets(new KeyRing(K2, [K1]), hashKey).hmac('contact-hash', 'email:a@example.com');
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
  });
});
