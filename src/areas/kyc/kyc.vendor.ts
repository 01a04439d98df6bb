import type { Tenant } from '../../platform/db/platform-tables.js';
import { selectVendor, type VendorImplementations, type Vendors } from '../../platform/vendors.js';
import type { KycDocument, KycTier } from './kyc.rules.js';

export interface VendorSession {
  kycCheckId: string;
  userId: string;
  email: string;
  phone: string;
  requiredTier: KycTier;
  requiredDocuments: readonly KycDocument[];
}

/**
 * What the vendor says when a session opens: a decision it can take at once, or that the user must walk the
 * vendor flow (begin, upload, then review). A real vendor reports later decisions by its own callback.
 */
export type VendorOpening = { outcome: 'approve' } | { outcome: 'reject' } | { outcome: 'await_user' };

export interface KycVendor {
  openSession(session: VendorSession): Promise<VendorOpening>;
}

/**
 * The sandbox stub's documented triggers, by the tenant's user identifier (case-sensitive substring):
 * `autoreject` ends rejected, `autoapprove` ends approved, anything else waits for the sandbox vendor flow and
 * then for manual review. An identifier with both is rejected (the conservative outcome).
 */
export const sandboxKycVendor: KycVendor = {
  async openSession({ userId }) {
    if (userId.includes('autoreject')) return { outcome: 'reject' };
    if (userId.includes('autoapprove')) return { outcome: 'approve' };
    return { outcome: 'await_user' };
  },
};

declare module '../../platform/vendors.js' {
  interface Vendors {
    kyc: VendorImplementations<KycVendor>;
  }
}

/** No production KYC vendor exists yet: a cut-over live tenant gets 409 vendor_not_configured unless one is given. */
export function kycVendors(
  override: Partial<VendorImplementations<KycVendor>> = {},
): VendorImplementations<KycVendor> {
  return { sandbox: sandboxKycVendor, ...override };
}

export function kycVendorFor(vendors: Vendors, tenant: Tenant): KycVendor {
  return selectVendor(tenant, 'kyc', vendors.kyc);
}
