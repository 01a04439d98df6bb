import type { ReviewQueueDescriptor } from '../../platform/case-work/descriptor.js';

/**
 * The staff's safer-gambling queue (docs/safer-gambling.md): players whose owed interaction is overdue or who
 * contested a finding, across tenants, the oldest flag first. A row is due as it joins: something is already late
 * (the operator's interaction) or waits on the staff's judgement (a contest), so there is no further grace.
 */
export const SAFER_GAMBLING_REVIEW_QUEUE = {
  queue: 'safer_gambling',
  label: 'Safer-gambling follow-up',
  table: 'sg_follow_ups',
  id: 'follow_up_id',
  dueAt: 'follow_up_at',
  decidedAt: 'cleared_at',
  slaSeconds: 0,
  statuses: ['overdue', 'contested'],
  awaiting: ['overdue', 'contested'],
} satisfies ReviewQueueDescriptor<'sg_follow_ups'>;

/** A follow-up's id names its player: tenant_id/user_id (a tenant id holds no slash). */
export const followUpId = (tenantId: string, userId: string) => `${tenantId}/${userId}`;

export function playerOfFollowUp(followUpId: string): { tenantId: string; userId: string } | undefined {
  const slash = followUpId.indexOf('/');
  if (slash <= 0 || slash === followUpId.length - 1) return undefined;
  return { tenantId: followUpId.slice(0, slash), userId: followUpId.slice(slash + 1) };
}
