import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  confirmVoid,
  getStaffExclusion,
  rejectVoid,
  voidExclusion,
  type StaffExclusion,
} from '../../areas/exclusions/index.js';
import type { Platform, StaffMember } from '../../platform/context.js';
import * as fourEyes from '../../platform/four-eyes.js';
import { RejectProposalRequest } from '../../platform/schemas.js';
import { roleMay, displayNames } from '../../staff/index.js';
import { consoleContext, memberOf } from '../console-auth.js';
import { html, time } from '../../platform/html.js';
import { csrfField, page } from '../layout.js';
import { actorsOf, exclusionPath, historyBlock, playerPath, proposalBlock } from './case-parts.js';
import { redirectWithNotice, sendPage } from './respond.js';

const VoidForm = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S' }) });
const label = (action: string) => (action === 'void' ? 'Void the permanent exclusion' : action);

function voidForm(member: StaffMember, row: StaffExclusion) {
  return html`<section aria-labelledby="void-heading" class="card">
    <h2 id="void-heading">Void this row</h2>
    <p>
      Void a row registered in error: it stops matching for every operator, and each one entitled to know of
      it is told (exclusion.voided).
      ${row.is_permanent ? 'A permanent exclusion is voided only when a second member of staff approves.' : ''}
    </p>
    <form method="post" action="${exclusionPath(row.exclusion_id)}/void" class="stack narrow">
      ${csrfField(member)}
      <label for="reason">Why the row was registered in error</label>
      <textarea id="reason" name="reason" rows="3" maxlength="1000" required></textarea>
      <button type="submit" class="danger">${row.is_permanent ? 'Propose the void' : 'Void the row'}</button>
    </form>
  </section>`;
}

/** One register row, an operator's or the regulator's: its facts, its void, and the void's four-eyes history. */
export function exclusionPages(app: FastifyInstance, platform: Platform): void {
  app.get<{ Params: { exclusion_id: string }; Querystring: { notice?: string } }>(
    '/console/exclusions/:exclusion_id',
    { config: { staffAction: 'read' } },
    async (request, reply) => {
      const member = memberOf(request);
      const ctx = consoleContext(platform, request);
      const row = await getStaffExclusion(ctx, request.params.exclusion_id);
      const proposals = await fourEyes.proposalsOf(platform.db, 'exclusion', row.exclusion_id);
      const names = await displayNames(platform.db, [
        ...actorsOf(proposals),
        ...[row.voided_by, row.void_confirmed_by].filter((a): a is string => a !== null),
      ]);
      const pending = proposals.find((p) => p.status === 'pending');
      const base = `${exclusionPath(row.exclusion_id)}/void`;
      const body = html`<dl class="facts">
          <dt>Row</dt>
          <dd><code>${row.exclusion_id}</code></dd>
          <dt>Registered by</dt>
          <dd>
            ${row.origin === 'regulator' ? "The regulator's list" : html`Tenant <a href="/console/tenants/${row.tenant_id ?? ''}">${row.tenant_id}</a>`}
          </dd>
          ${
            row.user_id && row.tenant_id
              ? html`<dt>Player</dt>
                  <dd><a href="${playerPath(row.tenant_id, row.user_id)}">${row.user_id}</a></dd>`
              : ''
          }
          <dt>Environment</dt>
          <dd>${row.environment}</dd>
          <dt>Email</dt>
          <dd>${row.email ?? '—'}</dd>
          <dt>Phone</dt>
          <dd>${row.phone ?? '—'}</dd>
          <dt>Duration</dt>
          <dd>${row.duration.replace('duration_', '')}</dd>
          <dt>From</dt>
          <dd>${time(row.effective_from)}</dd>
          <dt>Until</dt>
          <dd>${row.is_permanent ? 'Permanent' : time(row.expires_at)}</dd>
          <dt>Status</dt>
          <dd>${row.status}</dd>
          ${
            row.status === 'voided'
              ? html`<dt>Voided</dt>
                  <dd>
                    ${time(row.voided_at)} by
                    ${names.get(row.voided_by ?? '') ?? row.voided_by}${row.void_confirmed_by ? html`, approved by ${names.get(row.void_confirmed_by) ?? row.void_confirmed_by}` : ''}:
                    ${row.void_reason}
                  </dd>`
              : ''
          }
        </dl>
        ${pending ? proposalBlock(member, base, pending, label(pending.action), names) : ''}
        ${row.status === 'active' && !pending && roleMay(member.role, 'decide_cases') ? voidForm(member, row) : ''}
        ${historyBlock(proposals, label, names)}`;
      return sendPage(
        reply,
        page(
          {
            // The id is in the facts below: a long token in the heading would overflow a narrow screen.
            title: 'Register row',
            member,
            current: row.origin === 'regulator' ? '/console/regulator' : '/console/approvals',
            notice: request.query.notice,
          },
          body,
        ),
      );
    },
  );

  app.post<{ Params: { exclusion_id: string }; Body: { reason: string } }>(
    '/console/exclusions/:exclusion_id/void',
    { config: { staffAction: 'decide_cases' }, schema: { body: VoidForm } },
    async (request, reply) => {
      const id = request.params.exclusion_id;
      const { voided } = await voidExclusion(consoleContext(platform, request), id, {
        reason: request.body.reason.trim(),
      });
      const notice = voided
        ? `Row ${id} voided`
        : `Void of ${id} proposed: a second member of staff must approve it`;
      return redirectWithNotice(reply, exclusionPath(id), notice);
    },
  );

  app.post<{ Params: { exclusion_id: string } }>(
    '/console/exclusions/:exclusion_id/void/approve',
    { config: { staffAction: 'approve_decisions' } },
    async (request, reply) => {
      const id = request.params.exclusion_id;
      await confirmVoid(consoleContext(platform, request), id);
      return redirectWithNotice(reply, exclusionPath(id), `Void of ${id} approved: the row is void`);
    },
  );

  app.post<{ Params: { exclusion_id: string }; Body: { reason: string } }>(
    '/console/exclusions/:exclusion_id/void/reject',
    {
      config: { staffAction: 'approve_decisions' },
      schema: { body: Type.Object(RejectProposalRequest.properties) },
    },
    async (request, reply) => {
      const id = request.params.exclusion_id;
      await rejectVoid(consoleContext(platform, request), id, request.body.reason.trim());
      return redirectWithNotice(reply, exclusionPath(id), `Void of ${id} rejected: the row stays in force`);
    },
  );
}
