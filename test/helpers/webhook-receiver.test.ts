import { describe, expect, it } from 'vitest';
import { catalogueMismatch } from './webhook-receiver.js';

// The receiver's check of every received event against the event catalogue is only worth its failures.
describe('the test webhook receiver', () => {
  const envelope = { event_id: 'evt_1', timestamp: '2030-01-01T12:00:00.000Z' };

  it('passes an event as the catalogue has it', () => {
    expect(catalogueMismatch({ ...envelope, event: 'ping', data: { tenant_id: 'ten_1' } })).toBeUndefined();
  });

  it('names an event whose data is not its entry, and one the catalogue lacks', () => {
    expect(
      catalogueMismatch({ ...envelope, event: 'kyc.approved', data: { kyc_check_id: 'kyc_1' } }),
    ).toMatch(/^kyc\.approved: .*required/);
    expect(catalogueMismatch({ ...envelope, event: 'ping', data: { tenant_id: 'ten_1', extra: 1 } })).toMatch(
      /^ping: .*additional/,
    );
    expect(catalogueMismatch({ ...envelope, event: 'kyc.passed', data: {} })).toBe(
      'kyc.passed is not in the event catalogue',
    );
  });
});
