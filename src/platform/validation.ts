import Ajv from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Request bodies are validated strictly (no type coercion: "100" is not an amount); query strings and path
 * parameters arrive as text, so they are coerced to the schema's types.
 */
export function validatorCompiler() {
  const base = { allErrors: false, useDefaults: true, removeAdditional: false, strict: false } as const;
  const strict = addFormats.default(new Ajv.default({ ...base, coerceTypes: false }));
  const coercing = addFormats.default(new Ajv.default({ ...base, coerceTypes: 'array' }));
  return ({ schema, httpPart }: { schema: object; httpPart?: string }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema);
}
