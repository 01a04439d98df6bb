import type { FastifyInstance, FastifyReply } from 'fastify';
import { html, type Html } from '../../../platform/html.js';
import type { Platform } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { DURATIONS, type Duration, ownExclusion } from '../../exclusions/index.js';
import { confirmCode, liveCode, requestCode } from '../service/codes.js';
import { formatTime, MESSAGES } from '../locales/index.js';
import {
  explain,
  fieldError,
  layout,
  operatorNotice,
  send,
  type Page,
  type PageFrame,
  type TokenRequest,
} from './page.js';

/** The self-exclusion embed's pages: choose a period, confirm a permanent one, enter the code, done. */

/** `jane.doe@example.com` → `j•••@example.com`: enough for the player to recognise, little for anyone else. */
export const maskEmail = (email: string) => `${email[0]}•••${email.slice(email.lastIndexOf('@'))}`;

function chooseDuration(frame: PageFrame, page: { action: string; operatorNotice: string | null }): Html {
  const words = MESSAGES[frame.locale].exclusion;
  const error = fieldError(frame.errors, 'duration');
  return layout(
    frame,
    words.title,
    html`<p>${words.intro(frame.operator)}</p>
      <p>${words.register}</p>
      ${operatorNotice(page.operatorNotice)}
      <form method="post" action="${page.action}" novalidate>
        <fieldset id="duration" ${error.invalid ? html` aria-describedby="duration-error"` : ''}>
          <legend>${words.durationLegend}</legend>
          ${error.text}
          ${DURATIONS.map(
            (duration) =>
              html`<div class="choice">
                <input
                  type="radio"
                  name="duration"
                  value="${duration}"
                  id="duration-${duration}"
                  ${duration === 'duration_permanent' ? html` aria-describedby="permanent-hint"` : ''}
                />
                <label for="duration-${duration}">${words.durations[duration]}</label>
                ${duration === 'duration_permanent' ? html`<p class="hint" id="permanent-hint">${words.permanentHint}</p>` : ''}
              </div>`,
          )}
        </fieldset>
        <button type="submit">${words.continue}</button>
      </form>`,
  );
}

function confirmPermanent(frame: PageFrame, page: { action: string; back: string }): Html {
  const words = MESSAGES[frame.locale].exclusion;
  const error = fieldError(frame.errors, 'confirm_permanent');
  return layout(
    frame,
    words.permanentTitle,
    html`<p class="warning-text">${words.permanentText(frame.operator)}</p>
      <form method="post" action="${page.action}" novalidate>
        <input type="hidden" name="duration" value="duration_permanent" />
        <input type="hidden" name="step" value="permanent" />
        ${error.text}
        <div class="choice">
          <input
            type="checkbox"
            name="confirm_permanent"
            value="yes"
            id="confirm_permanent"
            ${error.invalid ? html` aria-describedby="confirm_permanent-error"` : ''}
          />
          <label for="confirm_permanent">${words.permanentConfirm}</label>
        </div>
        <button type="submit" class="warning">${words.permanentSubmit}</button>
      </form>
      <p><a href="${page.back}">${words.chooseAnother}</a></p>`,
  );
}

function enterCode(
  frame: PageFrame,
  page: Page['paths'] & { email: string; duration: Duration; codeExpiresAt: Date; resendAt: Date; now: Date },
): Html {
  const words = MESSAGES[frame.locale].exclusion;
  const error = fieldError(frame.errors, 'code');
  const resendIn = Math.max(0, Math.ceil((page.resendAt.getTime() - page.now.getTime()) / 1000));
  return layout(
    frame,
    words.codeTitle,
    html`<p>
        ${
          page.duration === 'duration_permanent'
            ? words.codeSentPermanent(maskEmail(page.email))
            : words.codeSent(maskEmail(page.email), words.durations[page.duration])
        }
      </p>
      <p>${words.codeExpiresAt(formatTime(frame.locale, page.codeExpiresAt))}</p>
      <form method="post" action="${page.confirm}" novalidate>
        <label for="code">${words.codeLabel}</label>
        <p class="hint" id="code-hint">${words.codeHint}</p>
        ${error.text}
        <input
          class="code"
          type="text"
          name="code"
          id="code"
          inputmode="numeric"
          autocomplete="one-time-code"
          maxlength="7"
          spellcheck="false"
          aria-describedby="code-hint${error.invalid ? ' code-error' : ''}"
          ${error.invalid ? html` aria-invalid="true"` : ''}
        />
        <button type="submit">${words.confirm}</button>
      </form>
      <form method="post" action="${page.request}" class="secondary-form">
        <input type="hidden" name="duration" value="${page.duration}" />
        ${page.duration === 'duration_permanent' ? html`<input type="hidden" name="confirm_permanent" value="yes" />` : ''}
        <button type="submit" class="secondary" data-resend-in="${resendIn}">${words.resend}</button>
        ${resendIn > 0 ? html`<p class="hint">${words.resendFrom(formatTime(frame.locale, page.resendAt))}</p>` : ''}
      </form>
      <p><a href="${page.choose}">${words.chooseAnother}</a></p>`,
  );
}

function excluded(frame: PageFrame, page: { expiresAt: Date | null; operatorNotice: string | null }): Html {
  const words = MESSAGES[frame.locale].exclusion;
  return layout(
    frame,
    words.doneTitle,
    html`<p class="done">
        ${page.expiresAt ? words.doneUntil(formatTime(frame.locale, page.expiresAt)) : words.donePermanent}
      </p>
      <p>${words.doneNext}</p>
      ${operatorNotice(page.operatorNotice)}`,
  );
}

/** The session's page as it stands: done, the code step while a code is live (unless asked for a period), else the choice. */
export async function exclusionPage(
  platform: Platform,
  page: Page,
  request: TokenRequest,
  reply: FastifyReply,
  status = 200,
  errors?: PageFrame['errors'],
) {
  const { session, paths } = page;
  const frame = { ...page.frame, errors };
  if (session.completed_at && session.exclusion_id) {
    const exclusion = await ownExclusion(page.ctx, session.exclusion_id);
    const message = {
      type: 'compliance-embed',
      event: 'exclusion_created',
      embed_session_id: session.embed_session_id,
      exclusion_id: session.exclusion_id,
    };
    return send(
      reply,
      status,
      frame,
      excluded(
        { ...frame, message },
        {
          expiresAt: exclusion?.expires_at ? new Date(exclusion.expires_at) : null,
          operatorNotice: session.operator_notice,
        },
      ),
    );
  }
  const live =
    request.query.step === 'choose' ? undefined : await liveCode(platform, session.embed_session_id);
  if (live) {
    return send(
      reply,
      status,
      frame,
      enterCode(frame, {
        ...paths,
        email: session.email!,
        duration: live.duration,
        codeExpiresAt: live.code_expires_at,
        resendAt: live.resend_available_at,
        now: platform.clock.now(),
      }),
    );
  }
  return send(
    reply,
    status,
    frame,
    chooseDuration(frame, { action: paths.request, operatorNotice: session.operator_notice }),
  );
}

/** The self-exclusion embed's form posts; `open` answers for a token that names no usable session. */
export function exclusionRoutes(
  app: FastifyInstance,
  platform: Platform,
  open: (request: TokenRequest, reply: FastifyReply) => Promise<Page | undefined>,
): void {
  app.post('/embeds/:token/request', async (request: TokenRequest, reply) => {
    const page = await open(request, reply);
    if (!page) return reply;
    const words = MESSAGES[page.frame.locale].errors;
    const form = request.body ?? {};
    const duration = form.duration as Duration | undefined;
    if (!duration || !DURATIONS.includes(duration)) {
      return exclusionPage(platform, page, request, reply, 400, [
        { field: 'duration', message: words.chooseDuration },
      ]);
    }
    if (duration === 'duration_permanent' && form.confirm_permanent !== 'yes') {
      // The second, explicit confirmation a permanent exclusion asks for: a page of its own.
      const again = form.step === 'permanent';
      const errors = again ? [{ field: 'confirm_permanent', message: words.confirmPermanent }] : undefined;
      const frame = { ...page.frame, errors };
      return send(
        reply,
        again ? 400 : 200,
        frame,
        confirmPermanent(frame, { action: page.paths.request, back: page.paths.choose }),
      );
    }
    try {
      await requestCode(platform, request.params.token, request.id, duration);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return exclusionPage(platform, page, request, reply, error.statusCode, [explain(error, page.frame)]);
    }
    return reply.redirect(page.paths.page, 303);
  });

  app.post('/embeds/:token/confirm', async (request: TokenRequest, reply) => {
    const page = await open(request, reply);
    if (!page) return reply;
    const code = (request.body?.code ?? '').replace(/\s/g, '');
    if (!/^\d{6}$/.test(code)) {
      const message = MESSAGES[page.frame.locale].errors.enterCode;
      return exclusionPage(platform, page, request, reply, 400, [{ field: 'code', message }]);
    }
    try {
      await confirmCode(platform, request.params.token, request.id, code);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return exclusionPage(platform, page, request, reply, error.statusCode, [explain(error, page.frame)]);
    }
    return reply.redirect(page.paths.page, 303);
  });
}
