import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { AppError } from '../../platform/errors.js';
import type { Secrets } from '../../platform/secrets.js';

/**
 * Email and phone are what the national register matches on, so every row and every look-up stores and queries
 * them in one canonical form: a trimmed, lower-cased email and an E.164 phone.
 */
export interface Contact {
  email: string | null;
  phone: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const MAX_EMAIL_LENGTH = 254;

export const invalidPayload = (message: string) => new AppError('invalid_payload', message);

/** Blank (empty or whitespace-only) counts as absent: clients often send `""` for "no email". */
const present = (value: string | undefined | null): value is string =>
  value !== undefined && value !== null && value.trim() !== '';

export function normaliseEmail(raw: string, field = 'email'): string {
  const email = raw.trim().toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email))
    throw invalidPayload(`${field} is not a valid email address`);
  return email;
}

/**
 * Parses a number in international form (leading +, any spacing or punctuation) against the full numbering-plan
 * metadata and returns it as E.164. No default region is assumed: "020 7946 0958" could be any country's number.
 */
export function normalisePhone(raw: string, field = 'phone'): string {
  const parsed = parsePhoneNumberFromString(raw.trim());
  if (!parsed || !parsed.isValid()) {
    throw invalidPayload(
      `${field} is not a valid phone number in international form (for example +14155552671)`,
    );
  }
  return parsed.number;
}

/** Providers that ignore dots in the local part; googlemail.com is gmail.com under another name. */
const DOTLESS_PROVIDERS: Readonly<Record<string, string>> = {
  'gmail.com': 'gmail.com',
  'googlemail.com': 'gmail.com',
};

/**
 * The form the register matches on, so that a player cannot slip past their own exclusion with a variant of the
 * same mailbox: a `+tag` is dropped on every domain (sub-addressing reaches the same mailbox at nearly every
 * provider), and dots are dropped where the provider ignores them. `Jane.Doe+casino@googlemail.com` and
 * `janedoe@gmail.com` are one player. Takes a normalised (trimmed, lower-case) email. The same rule is written in
 * SQL once, in the migration that gave existing rows their canonical form.
 */
export function canonicalEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const domain = email.slice(at + 1);
  let local = email.slice(0, at).split('+')[0]!;
  const provider = DOTLESS_PROVIDERS[domain];
  if (provider) local = local.replaceAll('.', '');
  // "+tag@example.com" has no mailbox name before its tag: keep it whole rather than match every such address.
  return `${local === '' ? email.slice(0, at) : local}@${provider ?? domain}`;
}

/**
 * A contact as the service remembers that a tenant has shown it: a keyed hash (HMAC-SHA-256 under a server-side
 * key), never the contact itself. The kind is part of the hashed text, so an email and a phone never collide.
 */
export const contactHash = (secrets: Secrets, kind: 'email' | 'phone', value: string) =>
  secrets.hmac('contact-hash', `${kind}:${value}`);

/** Normalises whichever of email and phone is present; at least one is required. `path` prefixes field names. */
export function normaliseContact(
  input: { email?: string | null; phone?: string | null },
  path = '',
): Contact {
  const contact: Contact = {
    email: present(input.email) ? normaliseEmail(input.email, `${path}email`) : null,
    phone: present(input.phone) ? normalisePhone(input.phone, `${path}phone`) : null,
  };
  if (contact.email === null && contact.phone === null) {
    throw invalidPayload(`${path}email or ${path}phone is required`);
  }
  return contact;
}
