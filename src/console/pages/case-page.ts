import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { caseWork } from '../../platform/case-work/assignment.js';
import type { ReviewQueue } from '../../platform/case-work/descriptor.js';
import type { Platform, ServiceContext, StaffMember } from '../../platform/context.js';
import * as fourEyes from '../../platform/four-eyes.js';
import { displayNames } from '../../staff/index.js';
import { consoleContext, memberOf } from '../console-auth.js';
import { html, type Html } from '../../platform/html.js';
import { page } from '../layout.js';
import { actorsOf, casePath, decisionForm, historyBlock, proposalBlock } from './case-parts.js';
import { redirectWithNotice, sendPage } from './respond.js';

/**
 * A case page of one queue, written once: the page at `/console/<queue>/:<idParam>` (its body is the area's), and
 * what it posts, the reviewer's decision and, where the queue has four eyes, a second member of staff's approval or
 * rejection of a proposed one; each post calls the area's verb and goes back to the case with a notice. (Taking a
 * case and adding a note are the same for every queue: queues.ts.)
 */
export interface CasePage<Decision extends string> {
  queue: ReviewQueue;
  /** The name the page's path gives the case's id. */
  idParam: string;
  /** The area's part: the page's title and body for this member of staff. */
  render(view: { ctx: ServiceContext; member: StaffMember; id: string; now: Date }): Promise<{
    title: string;
    body: Html;
  }>;
  /** Every decision, in the form's order, with its label. */
  decisions: readonly Decision[];
  labels: Record<Decision, string>;
  /** The longest reason the area takes. */
  reasonMaxLength: number;
  decide(ctx: ServiceContext, id: string, decision: Decision, reason: string): Promise<{ status: string }>;
  /** The notice once a decision took effect. */
  decidedNotice(status: string): string;
  fourEyes?: {
    /** The decisions that are only proposed until a second member of staff approves them. */
    decisions: readonly Decision[];
    /** What the notice calls a proposal of this decision: "Confirmation". */
    proposal(decision: Decision): string;
    approve(ctx: ServiceContext, id: string): Promise<{ status: string }>;
    reject(ctx: ServiceContext, id: string, reason: string): Promise<unknown>;
  };
}

type Params = Record<string, string>;

export function casePageRoutes<Decision extends string>(
  app: FastifyInstance,
  platform: Platform,
  casePage: CasePage<Decision>,
): void {
  const { queue, idParam, fourEyes } = casePage;
  const Params = Type.Object({ [idParam]: Type.String({ minLength: 1, maxLength: 100 }) });
  const Reason = Type.String({ minLength: 1, maxLength: casePage.reasonMaxLength, pattern: '\\S' });
  const path = `/console/${queue}/:${idParam}`;
  const idOf = (request: FastifyRequest<{ Params: Params }>) => request.params[idParam]!;
  const backTo = (request: FastifyRequest<{ Params: Params }>) => casePath(queue, idOf(request));

  app.get<{ Params: Params; Querystring: { notice?: string } }>(
    path,
    { config: { staffAction: 'read' }, schema: { params: Params } },
    async (request, reply) => {
      const member = memberOf(request);
      const ctx = consoleContext(platform, request);
      const now = platform.clock.now();
      const { title, body } = await casePage.render({ ctx, member, id: idOf(request), now });
      const current = `/console/queues/${queue}`;
      return sendPage(reply, page({ title, member, current, notice: request.query.notice, now }, body));
    },
  );

  app.post<{ Params: Params; Body: { decision: Decision; reason: string } }>(
    `${path}/decision`,
    {
      config: { staffAction: 'decide_cases' },
      schema: {
        params: Params,
        body: Type.Object({ decision: Type.Enum(casePage.decisions), reason: Reason }),
      },
    },
    async (request, reply) => {
      const { decision, reason } = request.body;
      const decided = await casePage.decide(
        consoleContext(platform, request),
        idOf(request),
        decision,
        reason,
      );
      const notice = fourEyes?.decisions.includes(decision)
        ? `${fourEyes.proposal(decision)} proposed: it takes effect when a second member of staff approves it`
        : casePage.decidedNotice(decided.status);
      return redirectWithNotice(reply, backTo(request), notice);
    },
  );
  if (!fourEyes) return;

  app.post<{ Params: Params }>(
    `${path}/approve`,
    { config: { staffAction: 'approve_decisions' }, schema: { params: Params } },
    async (request, reply) => {
      const decided = await fourEyes.approve(consoleContext(platform, request), idOf(request));
      return redirectWithNotice(reply, backTo(request), `Decision approved: the case is ${decided.status}`);
    },
  );

  app.post<{ Params: Params; Body: { reason: string } }>(
    `${path}/reject`,
    {
      config: { staffAction: 'approve_decisions' },
      schema: { params: Params, body: Type.Object({ reason: Reason }) },
    },
    async (request, reply) => {
      await fourEyes.reject(consoleContext(platform, request), idOf(request), request.body.reason);
      return redirectWithNotice(reply, backTo(request), 'Proposal rejected: the case awaits a decision');
    },
  );
}

/** A decision's label on the page; an action no longer offered is shown as stored. */
const decisionLabel = <Decision extends string>(casePage: CasePage<Decision>, action: string) =>
  casePage.labels[action as Decision] ?? action;

/**
 * The case work of a case with four eyes: who has it and its notes, its proposals (the pending one apart), and the
 * names of the staff they and `actors` (its reviewer, say) name, in one lookup.
 */
export async function fourEyesWork(
  ctx: ServiceContext,
  subject: ReviewQueue & fourEyes.FourEyesSubject,
  id: string,
  actors: readonly (string | null)[],
) {
  const [work, proposals] = await Promise.all([
    caseWork(ctx, subject, id),
    fourEyes.proposalsOf(ctx.db, subject, id),
  ]);
  const named = actors.filter((actor): actor is string => actor !== null);
  const names = await displayNames(ctx.db, [...actorsOf(proposals), ...named]);
  return { work, proposals, pending: proposals.find((p) => p.status === 'pending'), names };
}

/** The decision form offering these decisions of the case (key d focuses its first choice). */
export function caseDecisionForm<Decision extends string>(
  member: StaffMember,
  casePage: CasePage<Decision>,
  id: string,
  decisions: readonly Decision[],
): Html {
  const options = decisions.map((value) => ({
    value,
    label: casePage.labels[value],
    fourEyes: casePage.fourEyes?.decisions.includes(value),
  }));
  return decisionForm(member, `${casePath(casePage.queue, id)}/decision`, options);
}

/**
 * Where a four-eyes case is decided: the pending proposal to approve or reject, or else the decision form with the
 * decisions the case takes now (or `closed` when it takes none); then the four-eyes history.
 */
export function decisionSection<Decision extends string>(
  member: StaffMember,
  casePage: CasePage<Decision>,
  id: string,
  state: Awaited<ReturnType<typeof fourEyesWork>>,
  offered: { decisions: readonly Decision[]; closed: Html | string },
): Html {
  const labelOf = (action: string) => decisionLabel(casePage, action);
  return html`${
    state.pending
      ? proposalBlock(
          member,
          casePath(casePage.queue, id),
          state.pending,
          labelOf(state.pending.action),
          state.names,
        )
      : offered.decisions.length
        ? caseDecisionForm(member, casePage, id, offered.decisions)
        : offered.closed
  }
  ${historyBlock(state.proposals, labelOf, state.names)}`;
}
