import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Platform, StaffMember } from '../../platform/context.js';
import { CreateStaffRequest } from '../../staff/staff.schemas.js';
import { STAFF_ROLES, roleMay, type StaffRole } from '../../staff/staff.rules.js';
import type { StaffAccountView } from '../../staff/service/accounts.js';
import { createStaff, disableStaff, issueSetupLink, listStaff } from '../../staff/staff.service.js';
import { consoleContext, memberOf } from '../console-auth.js';
import { html, time } from '../html.js';
import { csrfField, page } from '../layout.js';
import { redirectWithNotice, sendPage } from './respond.js';

const CURRENT = '/console/staff';
const manage = { config: { staffAction: 'manage_staff' as const } };

function accountRow(a: StaffAccountView, member: StaffMember, mayManage: boolean) {
  // No one disables their own account from here: the last admin would lock the service out.
  const actions =
    mayManage && a.status !== 'disabled'
      ? html`<div class="row">
          <form
            method="post"
            action="${CURRENT}/${a.staff_id}/setup-link"
            data-confirm="Issue a new setup link for ${a.email}? Their password and authenticator stop working and their sessions end at once; they set both again through the link."
          >
            ${csrfField(member)}<button type="submit" class="secondary">New setup link for ${a.email}</button>
          </form>
          ${
            a.staff_id === member.staff_id
              ? ''
              : html`<form
                  method="post"
                  action="${CURRENT}/${a.staff_id}/disable"
                  data-confirm="Disable ${a.email}? Their sessions end at once."
                >
                  ${csrfField(member)}<button type="submit" class="danger">Disable ${a.email}</button>
                </form>`
          }
        </div>`
      : '';
  return html`<tr>
    <td>${a.email}</td>
    <td>${a.display_name}</td>
    <td>${a.role}</td>
    <td>${a.status}</td>
    <td>${time(a.created_at)}</td>
    ${mayManage ? html`<td>${actions}</td>` : ''}
  </tr>`;
}

const createForm = (member: StaffMember) =>
  html`<h2>Create a staff account</h2>
    <form method="post" action="${CURRENT}" class="row">
      ${csrfField(member)}
      <div class="stack">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" required maxlength="254" />
      </div>
      <div class="stack">
        <label for="display_name">Display name</label>
        <input id="display_name" name="display_name" required maxlength="100" />
      </div>
      <div class="stack">
        <label for="role">Role</label>
        <select id="role" name="role">
          ${STAFF_ROLES.map((r) => html`<option value="${r}" ${r === 'reviewer' ? html`selected` : ''}>${r}</option>`)}
        </select>
      </div>
      <button type="submit">Create account</button>
    </form>`;

/** The link in full, on PUBLIC_URL (never the request's Host): the admin passes it to the new member. */
const setupUrl = (platform: Platform, path: string) => `${platform.config.publicUrl}${path}`;

function linkPage(
  platform: Platform,
  request: FastifyRequest,
  title: string,
  account: StaffAccountView & { setup_path: string; setup_link_expires_at: string },
) {
  return page(
    { title, member: memberOf(request), current: CURRENT },
    html`<p>
        ${account.display_name} (${account.email}, ${account.role}) sets a password and an authenticator
        through this link. It works once, until ${time(account.setup_link_expires_at)}, and is shown only now:
        send it to them directly.
      </p>
      <p><code class="secret" id="setup-link">${setupUrl(platform, account.setup_path)}</code></p>
      <p><a href="${CURRENT}">Back to staff accounts</a></p>`,
  );
}

/** Staff accounts: everyone reads the list; admins create, disable and re-issue setup links. */
export function staffPages(app: FastifyInstance, platform: Platform): void {
  app.get<{ Querystring: { notice?: string } }>(
    CURRENT,
    { config: { staffAction: 'read' } },
    async (request, reply) => {
      const member = memberOf(request);
      const mayManage = roleMay(member.role, 'manage_staff');
      const accounts = await listStaff(consoleContext(platform, request));
      return sendPage(
        reply,
        page(
          { title: 'Staff accounts', member, current: CURRENT, notice: request.query.notice },
          html`${mayManage ? createForm(member) : ''}
            <h2>Accounts</h2>
            <table>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Name</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                  ${mayManage ? html`<th scope="col">Action</th>` : ''}
                </tr>
              </thead>
              <tbody>
                ${accounts.map((a) => accountRow(a, member, mayManage))}
              </tbody>
            </table>`,
        ),
      );
    },
  );

  // Rendered, not redirected to: the setup link must never travel in a URL.
  app.post<{ Body: { email: string; display_name: string; role: StaffRole } }>(
    CURRENT,
    { ...manage, schema: { body: Type.Object(CreateStaffRequest.properties) } },
    async (request, reply) => {
      const { email, display_name, role } = request.body;
      const created = await createStaff(consoleContext(platform, request), { email, display_name, role });
      return sendPage(reply, linkPage(platform, request, 'Staff account created', created));
    },
  );

  app.post<{ Params: { staff_id: string } }>(
    `${CURRENT}/:staff_id/disable`,
    manage,
    async (request, reply) => {
      const account = await disableStaff(consoleContext(platform, request), request.params.staff_id);
      return redirectWithNotice(reply, CURRENT, `${account.email} disabled; their sessions have ended`);
    },
  );

  app.post<{ Params: { staff_id: string } }>(
    `${CURRENT}/:staff_id/setup-link`,
    manage,
    async (request, reply) => {
      const issued = await issueSetupLink(consoleContext(platform, request), request.params.staff_id);
      return sendPage(reply, linkPage(platform, request, 'New setup link', issued));
    },
  );
}
