import type { ReviewQueueDescriptor } from '../../platform/case-work/descriptor.js';
import { REVIEW_SLA_SECONDS } from './aml.case-rules.js';
import { AWAITING_REVIEW_STATUSES, type AmlCaseStatus } from './aml.tables.js';

/** The AML review queue: every case by due time; one awaits a reviewer while under_review or held. */
export const AML_REVIEW_QUEUE = {
  queue: 'aml',
  label: 'AML case',
  table: 'aml_cases',
  id: 'case_id',
  dueAt: 'due_at',
  // Set by the first decision that takes the case out of review (an escalation, say), kept by later ones.
  decidedAt: 'reviewed_at',
  slaSeconds: REVIEW_SLA_SECONDS,
  statuses: ['under_review', 'held', 'escalated', 'cleared', 'frozen'] satisfies AmlCaseStatus[],
  awaiting: AWAITING_REVIEW_STATUSES,
} satisfies ReviewQueueDescriptor<'aml_cases'>;
