import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Platform, StaffMember } from '../../platform/context.js';
import { RejectProposalRequest } from '../../platform/schemas.js';
import {
  CreateStaffRequest,
  SetRoleRequest,
  STAFF_ROLES,
  roleMay,
  type StaffRole,
  type StaffAccountView,
  approveStaffChange,
  createStaff,
  disableStaff,
  enableStaff,
  issueSetupLink,
  listStaff,
  rejectStaffChange,
  setStaffRole,
} from '../../staff/index.js';
import { consoleContext, memberOf } from '../console-auth.js';
import { html, time, type Html } from '../../platform/html.js';
import { csrfField, page } from '../layout.js';
import { redirectWithNotice, sendPage } from './respond.js';

const CURRENT = '/console/staff';
const manage = { config: { staffAction: 'manage_staff' as const } };

/** What a pending change of an account proposes, in words. */
export function staffChangeLabel(action: string): string {
  if (action === 'create') return 'Create the account';
  if (action === 'enable') return 'Re-enable the account';
  return `Change the role to ${action.slice('role:'.length)}`;
}

/** A one-button form; `confirm` asks first (with script), for what cannot be taken back. */
const postButton = (
  member: StaffMember,
  action: string,
  label: string,
  confirm?: string,
  kind = 'secondary',
) =>
  html`<form method="post" action="${action}" ${confirm ? html`data-confirm="${confirm}"` : ''}>
    ${csrfField(member)}<button type="submit" class="${kind}">${label}</button>
  </form>`;

function pendingChange(a: StaffAccountView, member: StaffMember, mayManage: boolean, names: Names): Html {
  const p = a.pending_proposal;
  if (!p) return html``;
  const own = p.proposed_by === member.staff_id;
  const base = `${CURRENT}/${a.staff_id}/proposal`;
  return html`<p>
      <span class="badge pending">awaiting a second admin</span> ${staffChangeLabel(p.action)}, proposed by
      ${own ? 'you' : names(p.proposed_by)} · ${time(p.proposed_at)}
    </p>
    ${
      mayManage && !own
        ? html`<div class="row">
            ${postButton(member, `${base}/approve`, `Approve for ${a.email}`, undefined, '')}
            <form method="post" action="${base}/reject" class="row">
              ${csrfField(member)}
              <label for="reject-${a.staff_id}">Reason for rejecting</label>
              <input id="reject-${a.staff_id}" name="reason" required maxlength="2000" />
              <button type="submit" class="danger">Reject for ${a.email}</button>
            </form>
          </div>`
        : ''
    }`;
}

function actions(a: StaffAccountView, member: StaffMember): Html {
  const at = `${CURRENT}/${a.staff_id}`;
  if (a.status === 'proposed' || a.pending_proposal) return html``;
  if (a.status === 'disabled') {
    return postButton(member, `${at}/enable`, `Enable ${a.email}`, `Re-enable ${a.email}?`);
  }
  // No one disables their own account or changes their own role from here: the last admin would lock the
  // service out.
  const self = a.staff_id === member.staff_id;
  return html`<div class="row">
    ${postButton(
      member,
      `${at}/setup-link`,
      `New setup link for ${a.email}`,
      `Mail ${a.email} a new setup link? Their password and authenticator stop working and their sessions end at once; they set both again through the link.`,
    )}
    ${
      self
        ? ''
        : html`<form method="post" action="${at}/role" class="row">
              ${csrfField(member)}
              <label for="role-${a.staff_id}">Role of ${a.email}</label>
              <select id="role-${a.staff_id}" name="role">
                ${STAFF_ROLES.map((r) => html`<option value="${r}" ${r === a.role ? html`selected` : ''}>${r}</option>`)}
              </select>
              <button type="submit" class="secondary">Change role</button>
            </form>
            ${postButton(member, `${at}/disable`, `Disable ${a.email}`, `Disable ${a.email}? Their sessions end at once.`, 'danger')}`
    }
  </div>`;
}

type Names = (staffIdOrActor: string | null) => string;

function accountRow(a: StaffAccountView, member: StaffMember, mayManage: boolean, names: Names) {
  const approved = a.approved_by
    ? html`<br />approved by ${names(a.approved_by)} · ${time(a.approved_at)}`
    : '';
  const changed = a.changed_by ? html`<br />changed by ${names(a.changed_by)} · ${time(a.changed_at)}` : '';
  return html`<tr id="${a.staff_id}">
    <td>${a.email}</td>
    <td>${a.display_name}</td>
    <td>${a.role}</td>
    <td>${a.status}</td>
    <td>by ${names(a.created_by)} · ${time(a.created_at)}${approved}${changed}</td>
    ${mayManage ? html`<td>${pendingChange(a, member, mayManage, names)}${actions(a, member)}</td>` : ''}
  </tr>`;
}

const createForm = (member: StaffMember) =>
  html`<h2>Create a staff account</h2>
    <p class="hint">
      The new member of staff gets a one-time setup link by mail. An admin or supervisor account exists only
      once a second admin approves it.
    </p>
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

/**
 * Staff accounts: everyone reads the list, with who created, approved and last changed each; admins create,
 * change, disable and re-enable accounts and mail new setup links, and a second admin approves what gives an account
 * the power to approve.
 */
export function staffPages(app: FastifyInstance, platform: Platform): void {
  app.get<{ Querystring: { notice?: string } }>(
    CURRENT,
    { config: { staffAction: 'read' } },
    async (request, reply) => {
      const member = memberOf(request);
      const mayManage = roleMay(member.role, 'manage_staff');
      const accounts = await listStaff(consoleContext(platform, request));
      const byId = new Map(accounts.map((a) => [a.staff_id, a.display_name]));
      const names: Names = (actor) =>
        actor === null ? '' : actor === 'backoffice' ? 'the back-office token' : (byId.get(actor) ?? actor);
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
                  <th scope="col">Created, approved, changed</th>
                  ${mayManage ? html`<th scope="col">Action</th>` : ''}
                </tr>
              </thead>
              <tbody>
                ${accounts.map((a) => accountRow(a, member, mayManage, names))}
              </tbody>
            </table>`,
        ),
      );
    },
  );

  app.post<{ Body: { email: string; display_name: string; role: StaffRole } }>(
    CURRENT,
    { ...manage, schema: { body: Type.Object(CreateStaffRequest.properties) } },
    async (request, reply) => {
      const { email, display_name, role } = request.body;
      const created = await createStaff(platform, consoleContext(platform, request), {
        email,
        display_name,
        role,
      });
      const notice =
        created.status === 'proposed'
          ? `${created.email} (${created.role}) proposed: a second admin must approve it before the setup link is mailed`
          : `${created.email} (${created.role}) created: the setup link is mailed to them`;
      return redirectWithNotice(reply, CURRENT, notice);
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
    `${CURRENT}/:staff_id/enable`,
    manage,
    async (request, reply) => {
      const account = await enableStaff(platform, consoleContext(platform, request), request.params.staff_id);
      const notice = account.pending_proposal
        ? `Re-enabling ${account.email} proposed: a second admin must approve it`
        : `${account.email} re-enabled`;
      return redirectWithNotice(reply, CURRENT, notice);
    },
  );

  app.post<{ Params: { staff_id: string }; Body: { role: StaffRole } }>(
    `${CURRENT}/:staff_id/role`,
    { ...manage, schema: { body: Type.Object(SetRoleRequest.properties) } },
    async (request, reply) => {
      const account = await setStaffRole(
        platform,
        consoleContext(platform, request),
        request.params.staff_id,
        request.body.role,
      );
      const notice = account.pending_proposal
        ? `${staffChangeLabel(account.pending_proposal.action)} of ${account.email} proposed: a second admin must approve it`
        : `${account.email} is now ${account.role}`;
      return redirectWithNotice(reply, CURRENT, notice);
    },
  );

  app.post<{ Params: { staff_id: string } }>(
    `${CURRENT}/:staff_id/setup-link`,
    manage,
    async (request, reply) => {
      const account = await issueSetupLink(
        platform,
        consoleContext(platform, request),
        request.params.staff_id,
      );
      return redirectWithNotice(
        reply,
        CURRENT,
        `A new setup link is mailed to ${account.email}; their sessions have ended`,
      );
    },
  );

  app.post<{ Params: { staff_id: string } }>(
    `${CURRENT}/:staff_id/proposal/approve`,
    manage,
    async (request, reply) => {
      const account = await approveStaffChange(
        platform,
        consoleContext(platform, request),
        request.params.staff_id,
      );
      return redirectWithNotice(
        reply,
        CURRENT,
        `Approved: ${account.email} is ${account.role}, ${account.status}`,
      );
    },
  );

  app.post<{ Params: { staff_id: string }; Body: { reason: string } }>(
    `${CURRENT}/:staff_id/proposal/reject`,
    { ...manage, schema: { body: Type.Object(RejectProposalRequest.properties) } },
    async (request, reply) => {
      const account = await rejectStaffChange(
        consoleContext(platform, request),
        request.params.staff_id,
        request.body.reason,
      );
      return redirectWithNotice(reply, CURRENT, `Rejected the change of ${account.email}`);
    },
  );
}
