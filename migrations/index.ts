import type { Migration } from 'kysely';
import * as platform from './2026-11-22T0001_platform.js';
import * as exclusions from './2026-11-22T0002_exclusions.js';
import * as limits from './2026-11-22T0003_limits.js';
import * as kyc from './2026-11-22T0004_kyc.js';
import * as geo from './2026-11-22T0005_geo.js';
import * as sanctions from './2026-11-22T0006_sanctions.js';
import * as aml from './2026-11-22T0007_aml.js';
import * as amlEvaluationQueue from './2026-11-23T0008_aml_evaluation_queue.js';
import * as queueVacuumTruncate from './2026-11-24T0009_queue_vacuum_truncate.js';
import * as downloadsAndAlerts from './2026-11-25T0010_downloads_and_alerts.js';
import * as signingSecrets from './2026-11-25T0011_signing_secrets.js';
import * as registerPrivacy from './2026-11-25T0012_register_privacy.js';
import * as amlOutcomesDeadLetters from './2026-11-25T0013_aml_outcomes_dead_letters.js';
import * as reviewDueTimes from './2026-11-25T0014_review_due_times.js';
import * as limitReservations from './2026-11-25T0015_limit_reservations.js';
import * as webhookRecovery from './2026-11-25T0016_webhook_recovery.js';
import * as staff from './2026-11-25T0017_staff.js';
import * as embedsAndMail from './2026-11-27T0018_embeds_and_mail.js';
import * as reports from './2026-11-27T0019_reports.js';
import * as amlSettledAt from './2026-11-27T0020_aml_settled_at.js';
import * as secretsKeyIds from './2026-11-28T0021_secrets_key_ids.js';
import * as embedCodeLimits from './2026-11-28T0022_embed_code_limits.js';
import * as staffSessions from './2026-11-28T0023_staff_sessions.js';
import * as fourEyesByPeople from './2026-11-28T0024_four_eyes_by_people.js';
import * as sanctionsListChanges from './2026-12-01T0025_sanctions_list_changes.js';
import * as processLoad from './2026-12-02T0026_process_load.js';
import * as limitKinds from './2026-12-02T0027_limit_kinds.js';
import * as timeOuts from './2026-12-02T0028_time_outs.js';
import * as playSessions from './2026-12-02T0029_play_sessions.js';
import * as saferGambling from './2026-12-03T0030_safer_gambling.js';
import * as playerClosures from './2026-12-03T0034_player_closures.js';
import * as erasureRequests from './2026-12-03T0035_erasure_requests.js';
import * as retentionOverrides from './2026-12-03T0037_retention_overrides.js';
import * as saferGamblingFollowUps from './2026-12-03T0033_safer_gambling_follow_ups.js';
import * as partitions from './2026-12-03T0036_partitions.js';
import * as amlEventsPartitions from './2026-12-04T0038_aml_events_partitions.js';
import * as contactExportIndexes from './2026-12-04T0039_contact_export_indexes.js';
import * as exportIndexes from './2026-12-04T0040_export_indexes.js';

/** Every migration in order of its name. Frozen once merged; add new files, never edit old ones. */
export const migrations: Record<string, Migration> = {
  '2026-11-22T0001_platform': platform,
  '2026-11-22T0002_exclusions': exclusions,
  '2026-11-22T0003_limits': limits,
  '2026-11-22T0004_kyc': kyc,
  '2026-11-22T0005_geo': geo,
  '2026-11-22T0006_sanctions': sanctions,
  '2026-11-22T0007_aml': aml,
  '2026-11-23T0008_aml_evaluation_queue': amlEvaluationQueue,
  '2026-11-24T0009_queue_vacuum_truncate': queueVacuumTruncate,
  '2026-11-25T0010_downloads_and_alerts': downloadsAndAlerts,
  '2026-11-25T0011_signing_secrets': signingSecrets,
  '2026-11-25T0012_register_privacy': registerPrivacy,
  '2026-11-25T0013_aml_outcomes_dead_letters': amlOutcomesDeadLetters,
  '2026-11-25T0014_review_due_times': reviewDueTimes,
  '2026-11-25T0015_limit_reservations': limitReservations,
  '2026-11-25T0016_webhook_recovery': webhookRecovery,
  '2026-11-25T0017_staff': staff,
  '2026-11-27T0018_embeds_and_mail': embedsAndMail,
  '2026-11-27T0019_reports': reports,
  '2026-11-27T0020_aml_settled_at': amlSettledAt,
  '2026-11-28T0021_secrets_key_ids': secretsKeyIds,
  '2026-11-28T0022_embed_code_limits': embedCodeLimits,
  '2026-11-28T0023_staff_sessions': staffSessions,
  '2026-11-28T0024_four_eyes_by_people': fourEyesByPeople,
  '2026-12-01T0025_sanctions_list_changes': sanctionsListChanges,
  '2026-12-02T0026_process_load': processLoad,
  '2026-12-02T0027_limit_kinds': limitKinds,
  '2026-12-02T0028_time_outs': timeOuts,
  '2026-12-02T0029_play_sessions': playSessions,
  '2026-12-03T0030_safer_gambling': saferGambling,
  '2026-12-03T0034_player_closures': playerClosures,
  '2026-12-03T0035_erasure_requests': erasureRequests,
  '2026-12-03T0033_safer_gambling_follow_ups': saferGamblingFollowUps,
  '2026-12-03T0036_partitions': partitions,
  '2026-12-03T0037_retention_overrides': retentionOverrides,
  '2026-12-04T0038_aml_events_partitions': amlEventsPartitions,
  '2026-12-04T0039_contact_export_indexes': contactExportIndexes,
  '2026-12-04T0040_export_indexes': exportIndexes,
};
