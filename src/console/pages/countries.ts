import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  tierMoved,
  COUNTRY_MOVE_REASON_CODES,
  COUNTRY_MOVE_REASONS,
  type CountryMoveReason,
  countryList,
  setCountryStatus,
} from '../../areas/geo/index.js';
import type { Platform, StaffMember } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { roleMay } from '../../staff/index.js';
import { consoleContext, memberOf } from '../console-auth.js';
import { html } from '../../platform/html.js';
import { csrfField, page } from '../layout.js';
import { redirectWithNotice, sendPage } from './respond.js';

const CURRENT = '/console/countries';
const TIERS = ['allowed', 'restricted', 'blocked'] as const;
type Tier = (typeof TIERS)[number];
type Country = { code: string; name: string; status: Tier };

const MoveForm = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 10 }),
  status: Type.Union(TIERS.map((t) => Type.Literal(t))),
  reason: Type.Enum(COUNTRY_MOVE_REASON_CODES),
});
type MoveForm = { code: string; status: Tier; reason: CountryMoveReason };

function moveForm(member: StaffMember, countries: Country[], values: Partial<MoveForm> = {}) {
  return html`<h2>Move a country</h2>
    <form method="post" action="/console/countries/preview" class="stack narrow">
      ${csrfField(member)}
      <label for="code">Country</label>
      <select id="code" name="code" required>
        ${countries.map(
          (c) =>
            html`<option value="${c.code}" ${c.code === values.code ? html`selected` : ''}>
              ${c.name} (${c.code}), now ${c.status}
            </option>`,
        )}
      </select>
      <label for="status">New tier</label>
      <select id="status" name="status">
        ${TIERS.map((t) => html`<option value="${t}" ${t === values.status ? html`selected` : ''}>${t}</option>`)}
      </select>
      <label for="reason">Reason</label>
      <p class="hint" id="reason-hint">
        Sent to every tenant in the event, as its code: the event carries no words typed here.
      </p>
      <select id="reason" name="reason" aria-describedby="reason-hint">
        ${COUNTRY_MOVE_REASON_CODES.map(
          (r) =>
            html`<option value="${r}" ${r === values.reason ? html`selected` : ''}>
              ${COUNTRY_MOVE_REASONS[r]}
            </option>`,
        )}
      </select>
      <button type="submit">Preview the move</button>
    </form>`;
}

/** The country tier list; admins move an entry after seeing the event every tenant will receive. */
export function countryPages(app: FastifyInstance, platform: Platform): void {
  const countries = async () => (await countryList(platform)).body;

  const listPage = async (
    request: FastifyRequest,
    options: { notice?: string; values?: Partial<MoveForm> } = {},
  ) => {
    const member = memberOf(request);
    const { version, countries: rows } = await countries();
    return page(
      {
        title: 'Country tiers',
        member,
        current: CURRENT,
        notice: options.notice,
      },
      html`<p>List version ${version}.</p>
        ${roleMay(member.role, 'operate_service') ? moveForm(member, rows, options.values) : ''}
        <h2>Every entry</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Name</th>
              <th scope="col">Tier</th>
            </tr>
          </thead>
          <tbody>
            ${rows.map(
              (c) =>
                html`<tr>
                  <td><code>${c.code}</code></td>
                  <td>${c.name}</td>
                  <td>${c.status}</td>
                </tr>`,
            )}
          </tbody>
        </table>`,
    );
  };

  app.get<{ Querystring: { notice?: string } }>(
    CURRENT,
    { config: { staffAction: 'read' } },
    async (request, reply) => sendPage(reply, await listPage(request, { notice: request.query.notice })),
  );

  // The confirmation step: what the move will send, with the final button. Nothing changes yet.
  app.post<{ Body: MoveForm }>(
    '/console/countries/preview',
    { config: { staffAction: 'operate_service' }, schema: { body: MoveForm } },
    async (request, reply) => {
      const member = memberOf(request);
      const { code, status, reason } = request.body;
      const entry = (await countries()).countries.find((c) => c.code === code.toUpperCase());
      if (!entry) throw new AppError('country_not_found', `No entry ${code} in the country list`);
      const event = tierMoved({
        code: entry.code,
        name: entry.name,
        previousStatus: entry.status,
        newStatus: status,
        reason,
      });
      const body =
        entry.status === status
          ? html`<p>${entry.name} is already ${status}: moving it changes nothing and sends no event.</p>
              <p><a href="${CURRENT}">Back to the country tiers</a></p>`
          : html`<p>
                Moving <strong>${entry.name} (${entry.code})</strong> from ${entry.status} to ${status} sends
                this event to every tenant:
              </p>
              <dl class="facts">
                <dt>Event</dt>
                <dd><code id="event-name">${event.event}</code></dd>
                <dt>Data</dt>
                <dd><pre id="event-data">${JSON.stringify(event.data, null, 2)}</pre></dd>
              </dl>
              <form method="post" action="/console/countries/${entry.code}" class="row">
                ${csrfField(member)}
                <input type="hidden" name="code" value="${entry.code}" />
                <input type="hidden" name="status" value="${status}" />
                <input type="hidden" name="reason" value="${reason}" />
                <button type="submit">Move country</button>
                <a href="${CURRENT}">Cancel</a>
              </form>`;
      return sendPage(reply, page({ title: `Move ${entry.name}?`, member, current: CURRENT }, body));
    },
  );

  app.post<{ Params: { code: string }; Body: MoveForm }>(
    '/console/countries/:code',
    { config: { staffAction: 'operate_service' }, schema: { body: MoveForm } },
    async (request, reply) => {
      const moved = await setCountryStatus(consoleContext(platform, request), request.params.code, {
        status: request.body.status,
        reason: request.body.reason,
      });
      return redirectWithNotice(reply, CURRENT, `${moved.name} (${moved.code}) is now ${moved.status}`);
    },
  );
}
