import type { Tenant } from '../../platform/db/platform-tables.js';
import { selectVendor, type VendorImplementations } from '../../platform/vendors.js';
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

/** The production vendor is set once it is built; until then a cut-over live tenant gets 503 vendor_unavailable. */
export const kycVendors: VendorImplementations<KycVendor> = { sandbox: sandboxKycVendor };

export function kycVendorFor(tenant: Tenant): KycVendor {
  return selectVendor(tenant, 'kyc', kycVendors);
}
