import { randomInt } from 'node:crypto';
import type { Platform } from '../../../platform/context.js';
import { hashesEqual } from '../../../platform/api-keys.js';
import { raiseAlert } from '../../../platform/alerts.js';
import { audit } from '../../../platform/audit.js';
import type { Executor } from '../../../platform/db/database.js';
import { AppError } from '../../../platform/errors.js';
import { newId } from '../../../platform/ids.js';
import { queueMail } from '../../../platform/mail/mail.js';
import {
  canonicalEmail,
  contactHash,
  type Duration,
  type Exclusion,
  createExclusion,
} from '../../exclusions/index.js';
import { codeMail } from '../embeds.mail.js';
import {
  CODE_DIGITS,
  CODE_LIMIT_WINDOW_SECONDS,
  CODE_LIMITS,
  CODE_SECONDS,
  codeLimitDecision,
  localeOf,
  MAX_WRONG_CODES,
  RESEND_SECONDS,
} from '../embeds.rules.js';
import * as store from '../embeds.store.js';
import { withSession } from './sessions.js';

const HOUR_MS = 3_600_000;

/** One alert a tenant a clock hour: the ceiling holds for every request past it, the staff need hearing it once. */
function raiseCeilingAlert(platform: Platform, tx: Executor, tenantId: string, emailHash: string, now: Date) {
  const hour = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS).toISOString();
  return raiseAlert(
    tx,
    platform.log,
    {
      kind: 'embed_code_ceiling',
      subject: tenantId,
      message:
        `Tenant ${tenantId} asked for an embed code to an email that all tenants together had sent ` +
        `${CODE_LIMITS.service_wide_per_hour} codes in the last hour; the code was issued without its mail. ` +
        "Look at which tenants ask for codes to this email (details.email_hash): one may be using up a player's codes.",
      details: {
        tenant_id: tenantId,
        // The keyed hash embed_codes keeps: the staff can find the email's codes by it; the address is not in clear.
        email_hash: emailHash,
        service_wide_per_hour: CODE_LIMITS.service_wide_per_hour,
      },
      dedupeKey: `embed_code_ceiling/${tenantId}/${hour}`,
    },
    now,
  );
}

const codeHash = (platform: Platform, codeId: string, code: string) =>
  platform.secrets.hmac('embed-code', `${codeId}:${code}`);

/** A 429 with its wait in the Retry-After header and in the body (for the page to say it). */
const askAgainIn = (code: 'resend_too_early' | 'too_many_codes', seconds: number, why: string) =>
  new AppError(code, `${why}; ask again in ${seconds} seconds`, { retry_after_seconds: seconds }, seconds);

const sessionCompleted = () =>
  new AppError('embed_session_completed', 'This session has already created its exclusion');

/**
 * Sends a new 6-digit code to the session's email for the duration chosen now; the code is bound to both. A live
 * code is replaced (at most one a session); a new code comes no sooner than RESEND_SECONDS after the last; the
 * hourly CODE_LIMITS hold per tenant and email (429) and service-wide per email (silent: no mail). The mail is
 * written in the transaction that issues the code.
 */
export function requestCode(
  platform: Platform,
  token: string,
  requestId: string,
  duration: Duration,
): Promise<{ code_expires_at: Date; resend_available_at: Date }> {
  return withSession(platform, token, requestId, 'self_exclusion', async ({ session, tenant, ctx }, tx) => {
    if (session.completed_at) throw sessionCompleted();
    const now = ctx.clock.now();
    const latest = await store.latestCode(tx, session.embed_session_id);
    const live = latest?.status === 'live' ? latest : undefined;
    // A new code no sooner than RESEND_SECONDS after the last, live or voided by wrong codes.
    if (latest) {
      const resendAt = latest.created_at.getTime() + RESEND_SECONDS * 1000;
      if (now.getTime() < resendAt) {
        const wait = Math.ceil((resendAt - now.getTime()) / 1000);
        throw askAgainIn('resend_too_early', wait, `A code was sent less than ${RESEND_SECONDS} seconds ago`);
      }
    }
    const emailHash = contactHash(platform.secrets, 'email', canonicalEmail(session.email!));
    // Both counts are read under the email's lock, so concurrent requests from any process count each other.
    await store.lockEmail(tx, emailHash);
    const hourAgo = new Date(now.getTime() - CODE_LIMIT_WINDOW_SECONDS * 1000);
    const decision = codeLimitDecision({
      tenantRequestedAt: (await store.tenantCodesSince(tx, tenant.tenant_id, emailHash, hourAgo)).map(
        (code) => code.created_at,
      ),
      mailedInHour: await store.codesMailedSince(tx, emailHash, hourAgo),
      now,
    });
    if (decision.outcome === 'refuse') {
      throw askAgainIn(
        'too_many_codes',
        decision.retry_after_seconds,
        `${CODE_LIMITS.per_tenant_per_hour} codes to this email have been asked for in the last hour`,
      );
    }
    if (live) await store.endCode(tx, live.code_id, 'replaced', now);

    const code = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
    const codeId = newId('embed_code');
    const expiresAt = new Date(Math.min(now.getTime() + CODE_SECONDS * 1000, session.expires_at.getTime()));
    await store.insertCode(tx, {
      code_id: codeId,
      embed_session_id: session.embed_session_id,
      email_hash: emailHash,
      code_hash: codeHash(platform, codeId, code),
      duration,
      created_at: now,
      expires_at: expiresAt,
      status: 'live',
      ended_at: null,
      mailed: decision.mail,
    });
    if (decision.mail) {
      const mail = codeMail({
        locale: localeOf(session.locale),
        to: session.email!,
        tenantId: tenant.tenant_id,
        operator: tenant.name,
        code,
        duration,
      });
      await queueMail(tx, mail, now);
    } else {
      // Past the ceiling the code is issued as usual, unmailed: the tenant's answer and its later steps (resend,
      // wrong codes) are those of any code, so it learns nothing of other tenants. The staff are told, once an hour.
      await raiseCeilingAlert(platform, tx, tenant.tenant_id, emailHash, now);
    }
    await audit(tx, ctx, latest ? 'embed.code_resent' : 'embed.code_sent', {
      embed_session_id: session.embed_session_id,
      code_id: codeId,
      duration,
      mailed: decision.mail,
    });
    return {
      code_expires_at: expiresAt,
      resend_available_at: new Date(now.getTime() + RESEND_SECONDS * 1000),
    };
  });
}

/** The session's code awaiting its confirmation, if one is live and unexpired: what the page's code step shows. */
export async function liveCode(platform: Platform, sessionId: string) {
  const latest = await store.latestCode(platform.db, sessionId);
  if (latest?.status !== 'live' || latest.expires_at <= platform.clock.now()) return undefined;
  return {
    duration: latest.duration,
    code_expires_at: latest.expires_at,
    resend_available_at: new Date(latest.created_at.getTime() + RESEND_SECONDS * 1000),
  };
}

type Confirmation =
  | { outcome: 'confirmed'; exclusion: Exclusion; created: boolean }
  | { outcome: 'wrong'; attemptsLeft: number };

/**
 * Checks the code and, if it is the live one, creates the exclusion through the same verb as POST /v1/exclusions
 * (source recorded as the embed), for the duration the code was sent for. A wrong code counts against the code and
 * is answered 422 with the attempts left, after the count has committed; the fifth voids the code.
 */
export async function confirmCode(
  platform: Platform,
  token: string,
  requestId: string,
  code: string,
): Promise<{ exclusion: Exclusion; created: boolean }> {
  const result = await withSession<Confirmation>(
    platform,
    token,
    requestId,
    'self_exclusion',
    async ({ session, ctx }, tx) => {
      if (session.completed_at) throw sessionCompleted();
      const now = ctx.clock.now();
      const latest = await store.latestCode(tx, session.embed_session_id);
      if (latest?.status === 'locked') {
        throw new AppError('code_locked', `${MAX_WRONG_CODES} wrong codes were entered; ask for a new code`);
      }
      if (latest?.status !== 'live') {
        throw new AppError('code_not_requested', 'No code has been sent in this session; request one first');
      }
      if (latest.expires_at <= now) {
        throw new AppError('code_expired', 'The code has expired; ask for a new code');
      }
      const details = { embed_session_id: session.embed_session_id, code_id: latest.code_id };
      if (!hashesEqual(latest.code_hash, codeHash(platform, latest.code_id, code))) {
        const wrong = latest.wrong_attempts + 1;
        const attemptsLeft = MAX_WRONG_CODES - wrong;
        await store.recordWrongCode(tx, latest.code_id, wrong);
        if (attemptsLeft === 0) await store.endCode(tx, latest.code_id, 'locked', now);
        await audit(tx, ctx, attemptsLeft === 0 ? 'embed.code_locked' : 'embed.code_rejected', {
          ...details,
          attempts_left: attemptsLeft,
        });
        return { outcome: 'wrong', attemptsLeft };
      }

      await store.endCode(tx, latest.code_id, 'used', now);
      const { exclusion, created } = await createExclusion(
        platform,
        ctx,
        {
          user_id: session.user_id,
          duration: latest.duration,
          ...(session.email === null ? {} : { email: session.email }),
          ...(session.phone === null ? {} : { phone: session.phone }),
          reason: 'self_initiated',
        },
        'embed',
      );
      await store.completeSession(tx, session.embed_session_id, exclusion.exclusion_id, now);
      await audit(tx, ctx, 'embed.code_confirmed', { ...details, exclusion_id: exclusion.exclusion_id });
      return { outcome: 'confirmed', exclusion, created };
    },
  );
  if (result.outcome === 'wrong') {
    throw new AppError(
      'invalid_code',
      result.attemptsLeft === 0
        ? `The code is not right, and ${MAX_WRONG_CODES} wrong codes void it; ask for a new code`
        : `The code is not right; ${result.attemptsLeft} attempts left`,
      { attempts_left: result.attemptsLeft },
    );
  }
  return { exclusion: result.exclusion, created: result.created };
}
