import type { FastifyInstance } from 'fastify';
import { getTenant } from '../../backoffice/service/tenants.js';
import { amlCasesOfUser, recentAmlEvents } from '../../areas/aml/index.js';
import { exclusionsOfUser } from '../../areas/exclusions/index.js';
import { kycChecksOfUser, tierRecord } from '../../areas/kyc/index.js';
import { followUpId, saferGamblingOfPlayer } from '../../areas/safer-gambling/index.js';
import { playerDismissals, sanctionsOfUser } from '../../areas/sanctions/index.js';
import { timeOutsOfUser } from '../../areas/time-outs/index.js';
import { caseWork } from '../../platform/case-work/assignment.js';
import type { Platform, StaffMember } from '../../platform/context.js';
import { recentEventsOfUser } from '../../platform/outbox.js';
import { formatMoney } from '../../platform/money.js';
import { displayNames, roleMay } from '../../staff/index.js';
import { consoleContext, memberOf } from '../console-auth.js';
import { exportPlayerData } from '../../platform/data-export.js';
import { html, time, type Html } from '../../platform/html.js';
import { csrfField, page } from '../layout.js';
import { exclusionPath } from './case-parts.js';
import { limitSections } from './player-limits.js';
import { saferGamblingSection } from './player-safer-gambling.js';
import { table } from './record-table.js';
import { dismissalActors, dismissalsSection } from './sanctions-dismissals.js';
import { sendPage } from './respond.js';

/** Each list on the page stops here: the player page is a summary, the case pages and logs have the rest. */
const RECENT = 50;
const CASES = 20;

const link = (href: string, text: string) => html`<a href="${href}">${text}</a>`;
const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
const usd = (cents: number) => formatMoney(cents, 'USD');

const exportPath = (tenantId: string, userId: string) =>
  `/console/players/${encodeURIComponent(tenantId)}/${encodeURIComponent(userId)}/export`;

/** A player's data protection request: everything held about them, as the back office's export (docs/data.md). */
function exportForm(member: StaffMember, tenantId: string, userId: string): Html {
  return html`<h2>Data held about this player</h2>
    <p class="hint">
      Everything the service holds about this user id at this tenant, as one JSON file with a summary, for a
      player's access request. The export is recorded in the tenant's audit log.
    </p>
    <form method="post" action="${exportPath(tenantId, userId)}">
      ${csrfField(member)}
      <button type="submit">Export this player's data</button>
    </form>`;
}

/** Everything the service holds about one player of one tenant, for staff working one of the player's cases. */
export function playerPages(app: FastifyInstance, platform: Platform): void {
  app.get<{ Params: { tenant_id: string; user_id: string }; Querystring: { notice?: string } }>(
    '/console/players/:tenant_id/:user_id',
    { config: { staffAction: 'read' } },
    async (request, reply) => {
      const member = memberOf(request);
      const { tenant_id: tenantId, user_id: userId } = request.params;
      const ctx = consoleContext(platform, request);
      const tenant = await getTenant(ctx, tenantId);
      // The tenant's own read verbs, for a member of staff reading on the tenant's behalf.
      const asTenant = { ...ctx, tenantId };
      const db = platform.db;
      const [
        exclusions,
        limits,
        timeOuts,
        saferGambling,
        followUpWork,
        tier,
        checks,
        sanctions,
        dismissals,
        amlCases,
        amlEvents,
        events,
      ] = await Promise.all([
        exclusionsOfUser(db, tenantId, userId),
        limitSections(asTenant, userId),
        timeOutsOfUser(db, tenantId, userId, platform.clock.now(), RECENT),
        saferGamblingOfPlayer(db, tenantId, userId, platform.clock.now(), RECENT),
        caseWork(ctx, 'safer_gambling', followUpId(tenantId, userId)),
        tierRecord(asTenant, userId),
        kycChecksOfUser(db, tenantId, userId, CASES),
        sanctionsOfUser(db, tenantId, userId, CASES),
        playerDismissals(ctx, { tenantId, userId }).then((found) => found.dismissals),
        amlCasesOfUser(db, tenantId, userId, CASES),
        recentAmlEvents(db, tenantId, userId, RECENT),
        recentEventsOfUser(db, tenantId, userId, RECENT),
      ]);
      const screen = sanctions.screen;
      const names = await displayNames(db, dismissalActors(dismissals));

      const body = html`<dl class="facts">
          <dt>Tenant</dt>
          <dd>${link(`/console/tenants/${tenantId}`, tenant.name)} <span class="muted">${tenantId}</span></dd>
          <dt>Environment</dt>
          <dd>${tenant.environment}</dd>
          <dt>User id</dt>
          <dd>${userId}</dd>
        </dl>

        <h2>Self-exclusions</h2>
        <p class="hint">
          Rows the tenant registered for this user id. Register entries known only by email or phone (the
          regulator's list) carry no user id and are not shown here.
        </p>
        ${table(
          exclusions,
          [
            ['Exclusion', (e) => link(exclusionPath(e.exclusion_id), e.exclusion_id)],
            ['Duration', (e) => e.duration.replace('duration_', '')],
            ['From', (e) => time(e.effective_from)],
            ['Until', (e) => (e.is_permanent ? 'Permanent' : time(e.expires_at))],
            ['Status', (e) => e.status],
            ['Reason', (e) => e.reason],
            ['Sent to the regulator', (e) => yesNo(e.regulator_propagated)],
          ],
          {
            empty: 'No self-exclusion registered for this user id.',
            href: (e) => exclusionPath(e.exclusion_id),
          },
        )}
        ${limits}

        <h2>Time-outs</h2>
        <p class="hint">
          Breaks the player took at this tenant, newest first. An extension is a new row; the one it replaced
          is superseded.
        </p>
        ${table(
          timeOuts,
          [
            ['Time-out', (t) => t.time_out_id],
            ['Duration', (t) => t.duration.replace('duration_', '')],
            ['From', (t) => time(t.starts_at)],
            ['Until', (t) => time(t.ends_at)],
            ['Status', (t) => t.status],
            ['Reason', (t) => t.reason],
            ['Extends', (t) => t.extends_time_out_id],
          ],
          { empty: 'No time-out taken.' },
        )}
        ${saferGamblingSection(member, tenantId, userId, saferGambling, followUpWork)}

        <h2>KYC</h2>
        <dl class="facts">
          <dt>Verified tier</dt>
          <dd>${tier.verified_tier}</dd>
          <dt>Verified</dt>
          <dd>${time(tier.verified_at)}</dd>
          <dt>Withdrawn in total</dt>
          <dd>${usd(tier.cumulative_withdrawn_cents)}</dd>
          <dt>Can still withdraw at this tier</dt>
          <dd>${tier.max_withdrawal_cents === null ? 'No ceiling' : usd(tier.max_withdrawal_cents)}</dd>
        </dl>
        ${table(
          checks,
          [
            ['Check', (c) => link(`/console/kyc/${c.kyc_check_id}`, c.kyc_check_id)],
            ['Required tier', (c) => c.required_tier],
            ['Status', (c) => c.status],
            ['Withdrawal', (c) => formatMoney(c.withdrawal_amount_cents, c.currency)],
            ['Started', (c) => time(c.created_at)],
            ['Review due', (c) => time(c.review_due_at)],
            ['Decided', (c) => time(c.decided_at)],
          ],
          { empty: 'No KYC check.', href: (c) => `/console/kyc/${c.kyc_check_id}` },
        )}

        <h2>Sanctions</h2>
        ${
          screen
            ? html`<dl class="facts">
                <dt>Name</dt>
                <dd>${screen.first_name} ${screen.last_name}</dd>
                <dt>Date of birth</dt>
                <dd>${screen.date_of_birth}</dd>
                <dt>Nationality</dt>
                <dd>${screen.nationality}</dd>
                <dt>Email</dt>
                <dd>${screen.email}</dd>
                <dt>Status</dt>
                <dd>${screen.status}</dd>
                <dt>Transactions held</dt>
                <dd>${yesNo(screen.transactions_held)}</dd>
                <dt>Last screened</dt>
                <dd>${time(screen.checked_at)}</dd>
              </dl>`
            : html`<p class="muted">Never screened.</p>`
        }
        ${
          screen
            ? table(
                sanctions.cases,
                [
                  ['Case', (c) => link(`/console/sanctions/${c.case_id}`, c.case_id)],
                  ['Status', (c) => c.status],
                  ['Highest score', (c) => c.highest_match_score],
                  ['Trigger', (c) => c.trigger],
                  ['Opened', (c) => time(c.opened_at)],
                  ['Due', (c) => time(c.due_at)],
                  ['Decided', (c) => time(c.decided_at)],
                ],
                { empty: 'No sanctions case.', href: (c) => `/console/sanctions/${c.case_id}` },
              )
            : ''
        }
        ${dismissals.length || screen ? dismissalsSection(member, dismissals, names) : ''}

        <h2>AML cases</h2>
        ${table(
          amlCases,
          [
            ['Case', (c) => link(`/console/aml/${c.case_id}`, c.case_id)],
            ['Status', (c) => c.status],
            ['Origin', (c) => c.origin],
            ['Rules', (c) => c.rules_triggered.join(', ')],
            ['Risk score', (c) => c.risk_score],
            ['Opened', (c) => time(c.opened_at)],
            ['Due', (c) => time(c.due_at)],
          ],
          { empty: 'No AML case.', href: (c) => `/console/aml/${c.case_id}` },
        )}

        <h2>Recent AML events</h2>
        ${table(
          amlEvents,
          [
            ['Occurred', (e) => time(e.occurred_at)],
            ['Type', (e) => e.event_type],
            ['Amount', (e) => formatMoney(e.amount_cents, e.currency)],
            ['In USD', (e) => usd(e.usd_cents)],
            ['Outcome', (e) => e.status],
            ['Transaction', (e) => e.transaction_id],
          ],
          { empty: 'No AML event.' },
        )}

        <h2>Recent webhooks</h2>
        ${table(
          events,
          [
            ['Event', (e) => e.event],
            ['Created', (e) => time(e.created_at)],
            ['Delivery', (e) => e.delivery_status],
            ['Attempts', (e) => e.attempt_count],
            ['Delivered', (e) => time(e.delivered_at)],
            ['Event id', (e) => e.event_id],
          ],
          { empty: 'No webhook about this user.' },
        )}
        ${roleMay(member.role, 'handle_data_requests') ? exportForm(member, tenantId, userId) : ''}`;
      return sendPage(
        reply,
        page(
          { title: `Player ${userId}`, member, notice: request.query.notice, now: platform.clock.now() },
          body,
        ),
      );
    },
  );

  app.post<{ Params: { tenant_id: string; user_id: string } }>(
    '/console/players/:tenant_id/:user_id/export',
    { config: { staffAction: 'handle_data_requests' } },
    async (request, reply) => {
      const { tenant_id: tenantId, user_id: userId } = request.params;
      const document = await exportPlayerData(platform, consoleContext(platform, request), tenantId, userId);
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="player-data-${tenantId}.json"`)
        .send(JSON.stringify(document, null, 2));
    },
  );
}
