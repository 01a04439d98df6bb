import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Clock } from './clock.js';
import { addServiceFormats } from './validation.formats.js';
import { findIllFormedText, MALFORMED_QUERY } from './validation.strings.js';

export interface ValidatorOptions {
  /** The service clock, for timestamps bounded by it (INSTANT_WINDOW); required by schemas that use one. */
  clock?: Clock | undefined;
  /** Report every problem instead of the first (the sanctions routes name every bad field). */
  allErrors?: boolean;
}

/** The keyword of the error for a string holding a NUL or a lone surrogate. */
export const WELL_FORMED = 'wellFormed';

const illFormedError = (instancePath: string): ErrorObject => ({
  instancePath,
  schemaPath: '#',
  keyword: WELL_FORMED,
  params: {},
  message: 'must not contain NUL characters or unpaired UTF-16 surrogates',
});

/** Ajv says only `must match format "…"`; these say what the service wants. */
const FORMAT_MESSAGES: Record<string, string> = {
  'date-time':
    'must be an ISO 8601 timestamp of a real instant (a date that exists, no leap second, years 0001 to 9999)',
  date: 'must be a calendar date (YYYY-MM-DD) that exists, years 0001 to 9999',
  'date-or-month': 'must be a UTC day (YYYY-MM-DD) or a month (YYYY-MM) that exists, years 0001 to 9999',
  iso4217: 'must be an ISO 4217 currency code in capitals, such as USD',
};

const explained = (errors: ErrorObject[] | null | undefined) =>
  errors?.map((error) => {
    const message = error.keyword === 'format' ? FORMAT_MESSAGES[String(error.params.format)] : undefined;
    return message === undefined ? error : { ...error, message };
  });

const malformedQueryError: ErrorObject = {
  instancePath: '',
  schemaPath: '#',
  keyword: WELL_FORMED,
  params: {},
  message: 'is not valid percent-encoded UTF-8',
};

/**
 * The compiled schema, then the checks that hold for every route whatever its schema says: no undecodable query
 * text, and no NUL or lone surrogate in any string or key. They run on what passed the schema, so free-form JSON
 * has already been bounded in depth and size.
 */
function withWellFormedText(validate: ValidateFunction, httpPart: string | undefined) {
  const checkText = httpPart !== 'headers';
  const wrapped = function (data: unknown, context?: Parameters<ValidateFunction>[1]) {
    if (httpPart === 'querystring' && (data as Record<symbol, unknown> | null)?.[MALFORMED_QUERY]) {
      wrapped.errors = [malformedQueryError];
      return false;
    }
    if (!validate(data, context)) {
      wrapped.errors = explained(validate.errors);
      return false;
    }
    // Coercion may have replaced the root value (Fastify passes its parent so that Ajv can).
    const validated = context?.parentData
      ? (context.parentData as Record<string, unknown>)[context.parentDataProperty as string]
      : data;
    const illFormed = checkText ? findIllFormedText(validated) : undefined;
    wrapped.errors = illFormed === undefined ? null : [illFormedError(illFormed)];
    return illFormed === undefined;
  } as ((data: unknown, context?: Parameters<ValidateFunction>[1]) => boolean) & {
    errors?: ErrorObject[] | null;
    schemaEnv?: unknown;
  };
  // Fastify passes the parent (so that Ajv can coerce a root value) only to a function that has this.
  wrapped.schemaEnv = validate.schemaEnv;
  return wrapped;
}

function createAjv(coerce: boolean, options: ValidatorOptions): Ajv {
  const ajv = new Ajv({
    allErrors: options.allErrors ?? false,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
    coerceTypes: coerce ? 'array' : false,
  });
  addFormats.default(ajv);
  return addServiceFormats(ajv, options.clock);
}

/**
 * Request bodies are validated strictly (no type coercion: "100" is not an amount); query strings and path
 * parameters arrive as text, so they are coerced to the schema's types.
 */
export function validatorCompiler(options: ValidatorOptions = {}) {
  const strict = createAjv(false, options);
  const coercing = createAjv(true, options);
  return ({ schema, httpPart }: { schema: object; httpPart?: string }) =>
    withWellFormedText((httpPart === 'body' ? strict : coercing).compile(schema), httpPart);
}
