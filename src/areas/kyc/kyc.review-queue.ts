import type { ReviewQueueDescriptor } from '../../platform/case-work/descriptor.js';
import { REVIEW_DUE_AFTER_SECONDS, type KycStatus } from './kyc.rules.js';

/**
 * The KYC review queue: every check that reached pending_review (which set its due time), by due time; decided ones
 * stay, so a late decision shows. A check awaits a reviewer while pending_review.
 */
export const KYC_REVIEW_QUEUE = {
  queue: 'kyc',
  label: 'KYC check',
  table: 'kyc_checks',
  id: 'kyc_check_id',
  dueAt: 'review_due_at',
  dueAtMayBeNull: true,
  decidedAt: 'decided_at',
  slaSeconds: REVIEW_DUE_AFTER_SECONDS,
  statuses: ['pending_review', 'approved', 'rejected', 'expired'] satisfies KycStatus[],
  awaiting: ['pending_review'] satisfies KycStatus[],
} satisfies ReviewQueueDescriptor<'kyc_checks'>;
