import { Type, type Static } from 'typebox';

export const FEED_MAX_LIMIT = 1000;

export const EventsFeedQuery = Type.Object({
  since: Type.Optional(
    Type.String({
      maxLength: 64,
      description:
        'An event_id of this tenant (the page starts after it: pass the previous page’s next_since) or an RFC 3339 timestamp (events produced at or after it). Absent: from the oldest event kept.',
    }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: FEED_MAX_LIMIT, default: 100 }),
});
export type EventsFeedQuery = Static<typeof EventsFeedQuery>;

/** The webhook envelope, exactly as delivered (without the signature headers). */
export const FeedEnvelope = Type.Object({
  event: Type.String({ description: 'Event name, for example kyc.approved' }),
  event_id: Type.String({ description: 'The webhook-id of its delivery' }),
  timestamp: Type.String({ description: 'When the event was produced (ISO 8601 UTC)' }),
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'As in the webhook' }),
});

export const EventsFeedPage = Type.Object({
  events: Type.Array(FeedEnvelope, { description: 'Oldest first' }),
  has_more: Type.Boolean({ description: 'More events follow: ask again at once with since=next_since' }),
  next_since: Type.Union([Type.String(), Type.Null()], {
    description:
      'The event_id of the last event of the page, to pass as since (when the page is empty, the since given, or null)',
  }),
});
