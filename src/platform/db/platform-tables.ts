import type { ColumnType, Generated, Insertable, JSONColumnType, Selectable } from 'kysely';

export type Timestamp = ColumnType<Date, Date, Date>;
export type Environment = 'sandbox' | 'live';
export type KeyRole = 'standard' | 'admin';
export type VendorArea = 'kyc' | 'geo' | 'sanctions';
export type RateLimitBucket = 'default' | 'exclusions' | 'aml_event';
export type RateLimitOverrides = Partial<Record<`${RateLimitBucket}_per_minute`, number>>;

export interface TenantsTable {
  tenant_id: string;
  name: string;
  environment: Environment;
  status: 'active' | 'suspended';
  /**
   * The whsec_… secret, encrypted (AES-256-GCM under the current master key, bound to this row, see
   * webhooks/signing-secrets.ts): HMAC signing needs it back, so unlike an API key it cannot be a hash, and a dump of
   * the database alone must not sign.
   */
  signing_secret: string;
  /** The secret a rotation replaced, encrypted, still signing beside the new one until the expiry; then null. */
  previous_signing_secret: string | null;
  previous_signing_secret_expires_at: Timestamp | null;
  webhook_url: string | null;
  /** When the destination was disabled for failing past the retry schedule; null while it is enabled. */
  webhook_disabled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  cutover_areas: JSONColumnType<VendorArea[]>;
  rate_limits: JSONColumnType<RateLimitOverrides>;
  /** Origins allowed to frame the tenant's hosted embeds (CSP frame-ancestors); none: they cannot be framed. */
  embed_origins: JSONColumnType<string[], string | undefined, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ApiKeysTable {
  key_id: string;
  tenant_id: string;
  /** The environment prefix plus the first characters of the secret: identifies a key without revealing it. */
  key_prefix: string;
  /** Hex SHA-256 of the whole key; the key itself is never stored. */
  key_hash: string;
  role: KeyRole;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface AuditLogTable {
  audit_id: Generated<number>;
  /** null for a staff action on what belongs to no tenant (a regulator row of the register). */
  tenant_id: string | null;
  occurred_at: Timestamp;
  actor: string;
  action: string;
  request_id: string | null;
  details: JSONColumnType<Record<string, unknown>>;
}

export interface SecurityLogTable {
  security_log_id: Generated<number>;
  occurred_at: Timestamp;
  reason: string;
  key_prefix: string | null;
  request_id: string | null;
  remote_ip: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'no_destination';

/** The outbox: each row is one event for one tenant, with its delivery state. */
export interface EventsTable {
  event_id: string;
  tenant_id: string;
  event: string;
  /** The envelope exactly as sent, so every attempt signs and delivers the same bytes. */
  payload: string;
  created_at: Timestamp;
  delivery_status: DeliveryStatus;
  attempt_count: Generated<number>;
  next_attempt_at: Timestamp | null;
  claim_token: string | null;
  claimed_until: Timestamp | null;
  delivered_at: Timestamp | null;
}

export interface WebhookAttemptsTable {
  attempt_id: Generated<number>;
  event_id: string;
  tenant_id: string;
  attempt_number: number;
  attempted_at: Timestamp;
  url: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  outcome: 'delivered' | 'retry_scheduled' | 'failed';
}

export interface ScheduledJobsTable {
  job_id: string;
  kind: string;
  subject_id: string;
  tenant_id: string | null;
  due_at: Timestamp;
  payload: JSONColumnType<Record<string, unknown>>;
  attempts: Generated<number>;
  last_error: string | null;
}

export interface ServiceSettingsTable {
  name: string;
  value: string;
}

export type DownloadOutcome = 'updated' | 'unchanged' | 'not_modified' | 'refused' | 'failed';

/** A configured download and the version of it accepted into the data directory. */
export interface DownloadSourcesTable {
  source_id: string;
  url: string;
  etag: string | null;
  last_modified: string | null;
  checked_at: Timestamp | null;
  outcome: DownloadOutcome | null;
  error: string | null;
  /** When the version in use was accepted; version, entities and sha256 describe it. */
  fetched_at: Timestamp | null;
  version: string | null;
  entities: number | null;
  sha256: string | null;
  lease_until: Timestamp | null;
}

export interface AlertsTable {
  alert_id: string;
  kind: string;
  subject: string;
  message: string;
  details: JSONColumnType<Record<string, unknown>>;
  raised_at: Timestamp;
  /** Set for an alert raised at most once per key (unique); null for one raised every time. */
  dedupe_key: string | null;
}

export type MailStatus = 'pending' | 'sent' | 'failed';

/** The mail outbox (platform/mail): one message, written in the transaction that decided to send it. */
export interface MailOutboxTable {
  mail_id: string;
  tenant_id: string | null;
  /** What the mail is for (embed_code): the back office lists by it. */
  purpose: string;
  to_address: string;
  subject: string;
  /** Null once a mail with a secret body (a one-time code) is sent or given up on. */
  text_body: string | null;
  html_body: string | null;
  /** The bodies carry a one-time code: dropped in the statement that records the mail as sent or failed. */
  secret_body: Generated<boolean>;
  created_at: Timestamp;
  status: MailStatus;
  attempts: Generated<number>;
  next_attempt_at: Timestamp | null;
  claim_token: string | null;
  claimed_until: Timestamp | null;
  sent_at: Timestamp | null;
  last_error: string | null;
}

/** A keyed hash's key (platform/key-rotation.ts), sealed under the master key: rotations re-seal, never change it. */
export interface SecretHashKeysTable {
  purpose: string;
  sealed_key: string;
  created_at: Timestamp;
}

/** A service process's last sample of how busy it is (see process-load.ts). */
export interface ProcessLoadTable {
  process_id: string;
  role: 'api' | 'worker';
  busy: number;
  sampled_at: Timestamp;
}

export interface PlatformTables {
  tenants: TenantsTable;
  api_keys: ApiKeysTable;
  audit_log: AuditLogTable;
  security_log: SecurityLogTable;
  events: EventsTable;
  webhook_attempts: WebhookAttemptsTable;
  scheduled_jobs: ScheduledJobsTable;
  service_settings: ServiceSettingsTable;
  download_sources: DownloadSourcesTable;
  alerts: AlertsTable;
  mail_outbox: MailOutboxTable;
  secret_hash_keys: SecretHashKeysTable;
  process_load: ProcessLoadTable;
}

export type Tenant = Selectable<TenantsTable>;
export type ApiKey = Selectable<ApiKeysTable>;
export type EventRow = Selectable<EventsTable>;
export type NewEvent = Insertable<EventsTable>;
export type ScheduledJob = Selectable<ScheduledJobsTable>;
export type DownloadSource = Selectable<DownloadSourcesTable>;
export type Alert = Selectable<AlertsTable>;
export type Mail = Selectable<MailOutboxTable>;
export type NewMail = Insertable<MailOutboxTable>;
