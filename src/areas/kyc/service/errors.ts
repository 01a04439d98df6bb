import { AppError } from '../../../platform/errors.js';
import type { KycCheck } from '../kyc.tables.js';

/** A currency without a rate cannot be placed against the USD tiers: the spec's 400 for a bad amount. */
export const noRate = (currency: string) =>
  new AppError(
    'invalid_amount',
    `No FX rate for ${currency}; amounts in ${currency} cannot be converted to USD`,
  );

/** A decided (or expired) check takes no further step. */
export const alreadyFinal = (check: KycCheck) =>
  new AppError('check_already_final', `KYC check ${check.kyc_check_id} is already ${check.status}`);
