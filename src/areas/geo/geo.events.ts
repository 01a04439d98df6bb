import type { CountryStatus } from './geo.rules.js';
import type { SetCountryStatusRequest } from './geo.schemas.js';

/** Every event the geo area emits: a tier move of a list entry, announced to every tenant. */

const EVENT_BY_STATUS = {
  blocked: 'geo.country_blocked',
  restricted: 'geo.country_restricted',
  allowed: 'geo.country_allowed',
} as const satisfies Record<CountryStatus, string>;

/** geo.country_blocked, geo.country_restricted or geo.country_allowed, named by the entry's new tier. */
export function tierMoved(change: {
  code: string;
  name: string;
  previousStatus: CountryStatus;
  newStatus: CountryStatus;
  reason: SetCountryStatusRequest['reason'];
}) {
  return {
    event: EVENT_BY_STATUS[change.newStatus],
    data: {
      country_code: change.code,
      country_name: change.name,
      previous_status: change.previousStatus,
      new_status: change.newStatus,
      reason: change.reason,
    },
  };
}
