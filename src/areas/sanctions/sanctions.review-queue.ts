import type { ReviewQueueDescriptor } from '../../platform/case-work/descriptor.js';
import { AWAITING_REVIEW, REVIEW_SLA_HOURS } from './sanctions.rules.js';
import type { SanctionsCaseStatus } from './sanctions.tables.js';

/** The sanctions review queue: every hit's case by due time; one awaits a reviewer while hit_review_pending. */
export const SANCTIONS_REVIEW_QUEUE = {
  queue: 'sanctions',
  label: 'Sanctions hit',
  table: 'sanctions_cases',
  id: 'case_id',
  dueAt: 'due_at',
  decidedAt: 'decided_at',
  slaSeconds: REVIEW_SLA_HOURS * 3600,
  statuses: ['hit_review_pending', 'cleared', 'confirmed'] satisfies SanctionsCaseStatus[],
  awaiting: [AWAITING_REVIEW],
} satisfies ReviewQueueDescriptor<'sanctions_cases'>;
