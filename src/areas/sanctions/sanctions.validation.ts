import type { ErrorObject } from 'ajv';
import { AppError } from '../../platform/errors.js';
import { validatorCompiler, WELL_FORMED } from '../../platform/validation.js';

/**
 * The sanctions area's 400: `missing_fields`, naming every field that is missing, malformed or unexpected (in the
 * message, and as `fields`), so a signup form can point at all of them at once. The platform's validator stops at
 * the first error, so these routes compile their schemas with allErrors.
 */

// The platform's validators (the same formats and text checks as every route), reporting every problem.
const compile = validatorCompiler({ allErrors: true });

/** What each field must be, in words a tenant's developer can act on. */
const EXPECTED: Record<string, string> = {
  user_id: "the tenant's player identifier, 1 to 200 characters",
  first_name: 'a name, 1 to 200 characters',
  last_name: 'a name, 1 to 200 characters',
  date_of_birth: 'a calendar date YYYY-MM-DD that exists, years 0001 to 9999',
  nationality: 'a two-letter country code in capitals, for example GB',
  email: 'an email address',
};

function describe(error: ErrorObject, dataVar: string): { field: string; problem: string } {
  if (error.keyword === 'required') {
    const field = (error.params as { missingProperty: string }).missingProperty;
    return { field, problem: 'missing' };
  }
  if (error.keyword === 'additionalProperties') {
    const field = (error.params as { additionalProperty: string }).additionalProperty;
    return { field, problem: 'not a field of this request' };
  }
  const field = error.instancePath.split('/')[1] || `(${dataVar})`;
  if (error.keyword === WELL_FORMED) return { field, problem: error.message ?? 'malformed' };
  return { field, problem: `must be ${EXPECTED[field] ?? error.message ?? 'valid'}` };
}

/** Route options for a sanctions route: its own validator and the missing_fields error. */
export const sanctionsValidation = {
  validatorCompiler: compile,
  schemaErrorFormatter: (errors: ErrorObject[], dataVar: string) => {
    const problems = new Map<string, string>();
    for (const error of errors) {
      const { field, problem } = describe(error, dataVar);
      if (!problems.has(field)) problems.set(field, problem);
    }
    const named = [...problems].map(([field, problem]) => `${field} (${problem})`).join('; ');
    return new AppError('missing_fields', `Missing or malformed ${dataVar} fields: ${named}`, {
      fields: [...problems.keys()],
    });
  },
};
