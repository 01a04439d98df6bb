import type { Static } from 'typebox';
import type { ReviewQueuePage } from '../../areas/kyc/index.js';
import { command, get, integer, overdueLines, type Command } from '../command.js';

export const KYC_COMMANDS: Record<string, Command> = {
  'kyc overdue': command(
    'kyc overdue [--limit N]',
    (_, f) => get(`/kyc/reviews?overdue=true&limit=${integer(f, 'limit') ?? 100}`),
    ({ reviews, next_cursor }: Static<typeof ReviewQueuePage>) =>
      overdueLines(
        reviews.map(
          (r) => `${String(r.due_at)}  ${r.kyc_check_id}  ${r.tenant_id}  ${r.user_id}  ${r.required_tier}`,
        ),
        next_cursor,
        'No overdue KYC reviews.',
      ),
  ),
};
