import { describe, expect, it } from 'vitest';
import { decided, flagged } from '../src/areas/aml/aml.events.js';
import { EventAck, ScreenResult, UserCases } from '../src/areas/aml/aml.schemas.js';
import type { AmlCase } from '../src/areas/aml/aml.tables.js';
import { HOLD_MESSAGE, REJECT_MESSAGE } from '../src/areas/aml/service/screen-withdrawal.js';
import { RESTRICTION_CODES } from '../src/areas/players/players.rules.js';
import { PlayerStatus, Restriction } from '../src/areas/players/players.schemas.js';
import { Screening } from '../src/areas/sanctions/sanctions.schemas.js';

/**
 * The tipping-off allow-lists: the fields a tenant may see of AML and sanctions, written out from the spec and the
 * docs. A tenant response serialises only the fields its schema lists, and a webhook carries only what its builder
 * picks, so a field added to either fails here until it is added to this list on purpose. What the tenant actually
 * receives in a whole scenario is scanned by tipping-off.test.ts.
 */
describe('the tipping-off allow-lists', () => {
  it.each([
    [
      'POST /v1/aml/screen',
      ScreenResult,
      [
        'decision',
        'user_id',
        'withdrawal_id',
        'rules_triggered',
        'risk_score',
        'rules_evaluated',
        'case_id',
        'user_message',
        'estimated_review_time',
      ],
    ],
    ['POST /v1/aml/event', EventAck, ['event_id', 'transaction_id', 'received_at', 'processing']],
    ['GET /v1/aml/cases', UserCases, ['user_id', 'open_cases', 'cases']],
    [
      'GET /v1/aml/cases, each case',
      UserCases.properties.cases.items,
      ['case_id', 'opened_at', 'status', 'rules_triggered', 'risk_score'],
    ],
    [
      'POST /v1/sanctions/screen and GET /v1/sanctions/status',
      Screening,
      [
        'screen_id',
        'user_id',
        'status',
        'checked_at',
        'transactions_held',
        'match_count',
        'highest_match_score',
        'case_id',
        'signup_allowed',
        'estimated_review_time',
      ],
    ],
    [
      'GET /v1/players/{user_id}/status',
      PlayerStatus,
      [
        'user_id',
        'can_play',
        'can_deposit',
        'can_withdraw',
        'marketing_allowed',
        'restrictions',
        'limits',
        'reality_check_interval_seconds',
      ],
    ],
    // A sanctions hit or an AML case is the code account_under_review and an end, never a case, rule or list.
    ['GET /v1/players/{user_id}/status, each restriction', Restriction, ['code', 'until']],
  ])('%s answers a tenant only %j', (_, schema, fields) => {
    expect(Object.keys(schema.properties).sort()).toEqual([...fields].sort());
  });

  it('the player status names a hold by one code that says nothing of why', () => {
    expect(RESTRICTION_CODES).toEqual([
      'self_excluded',
      'timed_out',
      'play_time_exhausted',
      'account_under_review',
      'kyc_required',
      // Safer gambling is not AML: the operator must act on it, so it has a code of its own (docs/safer-gambling.md).
      'safer_gambling_review',
    ]);
  });

  /** A case as stored, staff-only columns included: the builders must leave those out. */
  const stored = {
    case_id: 'case_1',
    tenant_id: 'ten_1',
    user_id: 'player-1',
    status: 'held',
    source: 'realtime',
    origin: 'screen_hold',
    withdrawal_id: 'wd-1',
    rules_triggered: ['R-001'],
    risk_score: 70,
    transaction_ids: ['tx-1'],
    context: [{ rule_code: 'R-001', pattern_key: 'large', at: '', transaction_ids: ['tx-1'], details: {} }],
    opened_at: new Date('2030-01-01T12:00:00Z'),
    updated_at: new Date('2030-01-01T12:00:00Z'),
    decided_at: new Date('2030-01-01T13:00:00Z'),
    reviewer: 'staff_1',
    due_at: new Date('2030-01-03T12:00:00Z'),
    reviewed_at: new Date('2030-01-01T13:00:00Z'),
    decision_reason: "the reviewer's own words",
  } satisfies AmlCase;

  it("aml.flagged carries the spec's six fields: codes, score, action and transaction ids", () => {
    expect(flagged(stored).data).toEqual({
      case_id: 'case_1',
      user_id: 'player-1',
      rules_triggered: ['R-001'],
      risk_score: 70,
      recommended_action: 'hold_and_review',
      transactions_to_review: ['tx-1'],
    });
  });

  it('a decision webhook names the reviewer by reference only, and no reason or findings', () => {
    expect(decided('confirm_hold', stored, 'rev_ref_1').data).toEqual({
      case_id: 'case_1',
      user_id: 'player-1',
      status: 'held',
      withdrawal_id: 'wd-1',
      rules_triggered: ['R-001'],
      reviewer: 'rev_ref_1',
    });
  });

  it('gives the player generic words that name no rule, score or reason', () => {
    expect(HOLD_MESSAGE).toBe('Your withdrawal is under review.');
    expect(REJECT_MESSAGE).toBe('Your withdrawal could not be processed. Please contact support.');
  });
});
