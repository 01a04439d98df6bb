import type { Generated, Selectable } from 'kysely';
import type { Timestamp } from '../../platform/db/platform-tables.js';
import type { Duration } from '../exclusions/index.js';
import type { EmbedKind } from './embeds.rules.js';

/** A hosted embed's session: what the operator's server said about the player, reached by the page's token. */
export interface EmbedSessionsTable {
  embed_session_id: string;
  /** Hex SHA-256 of the URL's token; the token itself is never stored. */
  token_hash: string;
  tenant_id: string;
  kind: EmbedKind;
  user_id: string;
  /** Normalised; required for self_exclusion (the code goes there). */
  email: string | null;
  phone: string | null;
  /** The currency the player's deposit limits are kept in (deposit_limits). */
  currency: string | null;
  /** One of the embeds' languages (LOCALES). */
  locale: string;
  return_url: string | null;
  /** The operator's own words for the page (what happens to the balance, say), shown as plain text. */
  operator_notice: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  completed_at: Timestamp | null;
  exclusion_id: string | null;
}

export type CodeStatus = 'live' | 'used' | 'locked' | 'replaced';

export interface EmbedCodesTable {
  code_id: string;
  embed_session_id: string;
  /** The keyed contact hash of the session's canonical email: the hourly limit counts across sessions. */
  email_hash: string;
  /** A keyed hash of the code and its id: a database dump does not give the code. */
  code_hash: string;
  duration: Duration;
  created_at: Timestamp;
  expires_at: Timestamp;
  wrong_attempts: Generated<number>;
  status: CodeStatus;
  ended_at: Timestamp | null;
  /** False: asked for past the service-wide ceiling of its email, so issued without its mail (docs/embeds.md). */
  mailed: boolean;
}

export interface EmbedTables {
  embed_sessions: EmbedSessionsTable;
  embed_codes: EmbedCodesTable;
}

export type EmbedSession = Selectable<EmbedSessionsTable>;
export type EmbedCode = Selectable<EmbedCodesTable>;
