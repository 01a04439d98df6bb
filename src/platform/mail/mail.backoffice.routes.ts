import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from '../context.js';
import type { Mail } from '../db/platform-tables.js';
import { AppError } from '../errors.js';
import { errorResponses, NullableTimestamp, Timestamp } from '../schemas.js';
import { findMail, listMail } from './mail.js';

export const MailEntry = Type.Object({
  mail_id: Type.String(),
  tenant_id: Type.Union([Type.String(), Type.Null()]),
  purpose: Type.String({ description: "embed_code: a self-exclusion embed's confirmation code" }),
  to: Type.String(),
  subject: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('sent'), Type.Literal('failed')], {
    description:
      'pending: not sent yet (kept here when no SMTP server is configured); sent; failed after every retry',
  }),
  attempts: Type.Integer(),
  created_at: Timestamp,
  next_attempt_at: NullableTimestamp,
  sent_at: NullableTimestamp,
  last_error: Type.Union([Type.String(), Type.Null()]),
  text: Type.Union([Type.String(), Type.Null()], {
    description:
      'The text part, only while no SMTP server is configured; a secret one (a code, a setup link) only on the embedded database, a one-machine sandbox: elsewhere it is for its recipient alone',
  }),
});

const MailQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
  before: Type.Optional(
    Type.String({ maxLength: 64, description: 'The mail_id of the last row of the previous page' }),
  ),
  tenant_id: Type.Optional(Type.String({ maxLength: 64 })),
});

/** The mail outbox as staff see it (docs/embeds.md#mail): newest first. */
export function mailBackofficeRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  const entry = (mail: Mail) => ({
    mail_id: mail.mail_id,
    tenant_id: mail.tenant_id,
    purpose: mail.purpose,
    to: mail.to_address,
    subject: mail.subject,
    status: mail.status,
    attempts: mail.attempts,
    created_at: mail.created_at,
    next_attempt_at: mail.next_attempt_at,
    sent_at: mail.sent_at,
    last_error: mail.last_error,
    // A setup link or a code shown to an admin would let them act as its recipient: only a one-machine sandbox,
    // whose operator holds the data files anyway, shows one.
    text:
      platform.config.smtpUrl || (mail.secret_body && platform.config.databaseUrl) ? null : mail.text_body,
  });
  return async (app) => {
    app.get(
      '/mail',
      {
        schema: {
          summary: 'The mail outbox, newest first',
          querystring: MailQuery,
          response: { 200: Type.Object({ mail: Type.Array(MailEntry) }), ...errorResponses(400) },
        },
      },
      async (req) => {
        const before = req.query.before ? await findMail(platform.db, req.query.before) : undefined;
        if (req.query.before && !before) throw new AppError('mail_not_found', `No mail ${req.query.before}`);
        const rows = await listMail(platform.db, {
          limit: req.query.limit,
          tenantId: req.query.tenant_id,
          before: before && { createdAt: before.created_at, mailId: before.mail_id },
        });
        return { mail: rows.map(entry) };
      },
    );

    app.get(
      '/mail/:mail_id',
      {
        schema: {
          summary: 'One message of the mail outbox',
          params: Type.Object({ mail_id: Type.String({ maxLength: 64 }) }),
          response: { 200: MailEntry, ...errorResponses(404) },
        },
      },
      async (req) => {
        const mail = await findMail(platform.db, req.params.mail_id);
        if (!mail) throw new AppError('mail_not_found', `No mail ${req.params.mail_id}`);
        return entry(mail);
      },
    );
  };
}
