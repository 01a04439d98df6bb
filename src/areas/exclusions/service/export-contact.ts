import type { Platform, ServiceContext } from '../../../platform/context.js';
import { exportContactData, type ContactForms } from '../../../platform/data-export.js';
import type { ContactDataExport } from '../../../platform/data-export.schemas.js';
import { canonicalEmail, contactHash, normaliseContact } from '../contact.js';

/**
 * Everything held about one email or phone in the register, across tenants (a data subject's access request by a
 * contact, docs/data.md): the contact in every form the service stores it in (as given, the register's canonical
 * email, the keyed hashes), handed to the platform's export. At least one of email and phone, each valid.
 */
export function exportContact(
  platform: Pick<Platform, 'secrets'>,
  ctx: ServiceContext,
  input: { email?: string | undefined; phone?: string | undefined },
): Promise<ContactDataExport> {
  const { email, phone } = normaliseContact(input);
  const forms: ContactForms = {};
  if (email) {
    const canonical = canonicalEmail(email);
    Object.assign(forms, {
      email,
      email_canonical: canonical,
      email_hash: contactHash(platform.secrets, 'email', canonical),
    });
  }
  if (phone) Object.assign(forms, { phone, phone_hash: contactHash(platform.secrets, 'phone', phone) });
  return exportContactData(ctx, { email, phone, forms });
}
