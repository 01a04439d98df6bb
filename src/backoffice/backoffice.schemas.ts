import { Type, type Static } from 'typebox';
import { NullableTimestamp, Timestamp } from '../platform/schemas.js';

export const Environment = Type.Union([Type.Literal('sandbox'), Type.Literal('live')]);
export const KeyRole = Type.Union([Type.Literal('standard'), Type.Literal('admin')]);
export const VendorArea = Type.Union([Type.Literal('kyc'), Type.Literal('geo'), Type.Literal('sanctions')]);

export const TenantParams = Type.Object({ tenant_id: Type.String() });

export const Tenant = Type.Object({
  tenant_id: Type.String(),
  name: Type.String(),
  environment: Environment,
  status: Type.Union([Type.Literal('active'), Type.Literal('suspended')]),
  webhook_url: Type.Union([Type.String(), Type.Null()]),
  webhook_disabled_at: Type.Optional(
    Type.Union([Timestamp, Type.Null()], {
      description:
        'Set when the destination kept failing past the retry schedule: deliveries stopped until it is enabled again',
    }),
  ),
  cutover_areas: Type.Array(VendorArea),
  rate_limits: Type.Object({
    default_per_minute: Type.Optional(Type.Integer()),
    exclusions_per_minute: Type.Optional(Type.Integer()),
    aml_event_per_minute: Type.Optional(Type.Integer()),
  }),
  embed_origins: Type.Array(Type.String(), {
    description: "Origins allowed to frame the tenant's hosted embeds; none: they cannot be framed",
  }),
  created_at: Timestamp,
});

export const CreateTenantRequest = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }), environment: Environment },
  { additionalProperties: false },
);
export type CreateTenantRequest = Static<typeof CreateTenantRequest>;

export const CreatedTenant = Type.Object({
  tenant_id: Type.String(),
  name: Type.String(),
  environment: Environment,
  api_key: Type.String({ description: 'Shown once; only its SHA-256 hash is stored' }),
  signing_secret: Type.String({ description: 'Standard Webhooks secret (whsec_…) for verifying webhooks' }),
});

export const RotateSigningSecretRequest = Type.Object(
  {
    overlap_hours: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 720,
        default: 24,
        description: 'Hours the old secret keeps signing beside the new one (0: it stops at once)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type RotateSigningSecretRequest = Static<typeof RotateSigningSecretRequest>;

export const RotatedSigningSecret = Type.Object({
  tenant_id: Type.String(),
  signing_secret: Type.String({ description: 'The new Standard Webhooks secret (whsec_…), shown once' }),
  previous_secret_expires_at: NullableTimestamp,
});

export const IssueKeyRequest = Type.Object({ role: KeyRole }, { additionalProperties: false });
export const IssuedKey = Type.Object({ api_key: Type.String(), key_prefix: Type.String(), role: KeyRole });
export const RevokedKey = Type.Object({ key_prefix: Type.String(), revoked_at: Timestamp });

export const WebhookRequest = Type.Object(
  { url: Type.String({ minLength: 1, maxLength: 2000 }) },
  { additionalProperties: false },
);
export const CutoverRequest = Type.Object(
  { areas: Type.Array(VendorArea, { maxItems: 3 }) },
  { additionalProperties: false },
);
const PerMinute = Type.Integer({ minimum: 1, maximum: 1_000_000 });
export const RateLimitsRequest = Type.Object(
  {
    default_per_minute: Type.Optional(PerMinute),
    exclusions_per_minute: Type.Optional(PerMinute),
    aml_event_per_minute: Type.Optional(PerMinute),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const EnqueuedEvent = Type.Object({ event_id: Type.String(), delivery_status: Type.String() });

export const ListQuery = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }) });

export const Delivery = Type.Object({
  event_id: Type.String(),
  event: Type.String(),
  created_at: Timestamp,
  delivery_status: Type.String(),
  attempt_count: Type.Integer(),
  next_attempt_at: NullableTimestamp,
  delivered_at: NullableTimestamp,
  attempts: Type.Array(
    Type.Object({
      attempt_number: Type.Integer(),
      attempted_at: Timestamp,
      url: Type.String(),
      status_code: Type.Union([Type.Integer(), Type.Null()]),
      latency_ms: Type.Integer(),
      error: Type.Union([Type.String(), Type.Null()]),
      outcome: Type.String(),
    }),
  ),
});

export const AuditEntry = Type.Object({
  audit_id: Type.Integer(),
  occurred_at: Timestamp,
  actor: Type.String(),
  action: Type.String(),
  request_id: Type.Union([Type.String(), Type.Null()]),
  details: Type.Record(Type.String(), Type.Unknown()),
});

export const ClockResponse = Type.Object({ now: Timestamp });
export const AdvanceClockRequest = Type.Object(
  { seconds: Type.Integer({ minimum: 0, maximum: 10 * 366 * 86400 }) },
  { additionalProperties: false },
);
