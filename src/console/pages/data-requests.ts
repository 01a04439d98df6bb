import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { exportContact } from '../../areas/exclusions/index.js';
import type { Platform, StaffMember } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { html } from '../../platform/html.js';
import { consoleContext, memberOf } from '../console-auth.js';
import { csrfField, page } from '../layout.js';
import { sendPage } from './respond.js';

const CURRENT = '/console/data-requests';
const CONTACT_EXPORT = `${CURRENT}/contact`;

interface Contact {
  email: string;
  phone: string;
}

/** The field a refused contact names (the verb's message starts with it), for the error summary's link. */
const fieldOf = (message: string) => (message.startsWith('phone') ? 'phone' : 'email');

function contactForm(member: StaffMember, contact: Contact) {
  return html`<h2>Everything held about an email or a phone</h2>
    <p class="hint" id="contact-hint">
      For a person's access request made with a contact rather than a player account: every row of the
      self-exclusion register and of the service's records that holds the email or the phone, at every tenant,
      in any form it is stored in (as typed, canonical, hashed). The file is a JSON document that starts with
      a summary; the export is recorded in the audit log with the contact's hashes, never the contact.
    </p>
    <form method="post" action="${CONTACT_EXPORT}" class="stack">
      ${csrfField(member)}
      <label for="email">Email</label>
      <input
        id="email"
        name="email"
        type="email"
        maxlength="320"
        value="${contact.email}"
        aria-describedby="contact-hint"
      />
      <label for="phone">Phone</label>
      <p class="hint" id="phone-hint">International form, +44…; give an email, a phone or both.</p>
      <input
        id="phone"
        name="phone"
        type="tel"
        maxlength="64"
        value="${contact.phone}"
        aria-describedby="phone-hint"
      />
      <button type="submit">Export this contact's data</button>
    </form>`;
}

/**
 * Data protection requests (docs/data.md, "A player's data on request"), for the members who may handle them: the
 * export of everything held about one email or phone, the back office's contact export as a JSON file. A player's
 * own export is on the player's page.
 */
export function dataRequestPages(app: FastifyInstance, platform: Platform): void {
  const requestsPage = (
    request: FastifyRequest,
    contact: Contact = { email: '', phone: '' },
    outcome: { error?: string; nothingHeld?: string } = {},
  ) =>
    page(
      {
        title: 'Data requests',
        member: memberOf(request),
        current: CURRENT,
        errors: outcome.error ? [{ field: fieldOf(outcome.error), message: outcome.error }] : [],
      },
      html`<p>
          A player's data at one tenant is exported from the player's page ("Export this player's data"),
          reached from any of their cases.
        </p>
        ${
          outcome.nothingHeld
            ? html`<p class="notice" role="status">Nothing is held about ${outcome.nothingHeld}.</p>`
            : ''
        }
        ${contactForm(memberOf(request), contact)}`,
    );

  app.get(CURRENT, { config: { staffAction: 'handle_data_requests' } }, async (request, reply) =>
    sendPage(reply, requestsPage(request)),
  );

  app.post<{ Body: { email?: string; phone?: string } }>(
    CONTACT_EXPORT,
    {
      config: { staffAction: 'handle_data_requests' },
      schema: {
        body: Type.Object({
          email: Type.Optional(Type.String({ maxLength: 320 })),
          phone: Type.Optional(Type.String({ maxLength: 64 })),
        }),
      },
    },
    async (request, reply) => {
      const contact = { email: request.body.email?.trim() ?? '', phone: request.body.phone?.trim() ?? '' };
      try {
        const document = await exportContact(platform, consoleContext(platform, request), contact);
        return reply
          .type('application/json; charset=utf-8')
          .header('content-disposition', 'attachment; filename="contact-data.json"')
          .send(JSON.stringify(document, null, 2));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        if (error.code === 'contact_not_found') {
          const subject = [contact.email, contact.phone].filter(Boolean).join(' and ');
          return sendPage(reply, requestsPage(request, contact, { nothingHeld: subject }));
        }
        if (error.statusCode !== 400) throw error;
        return sendPage(reply, requestsPage(request, contact, { error: error.message }), 400);
      }
    },
  );
}
