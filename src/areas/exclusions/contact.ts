import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { AppError } from '../../platform/errors.js';

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

export const invalidPayload = (message: string) => new AppError('invalid_payload', 400, message);

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
