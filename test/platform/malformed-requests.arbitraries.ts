import fc from 'fast-check';
import type { RouteSummary } from '../../src/app.js';

/**
 * fast-check generators for requests that a route must refuse: a request that passes the route's schemas (built
 * from those schemas), then at least one fault that no correct service may accept, in the body, the query, a path
 * parameter or the path itself. Faults the schemas do not rule out are never chosen, so every generated request
 * is malformed whatever the route does with it.
 */

type Schema = { [keyword: string]: unknown };
type Path = (string | number)[];

export interface GeneratedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** What makes it malformed, for the failure report. */
  fault: string;
}

export interface Context {
  /** The service clock's now: valid timestamps are near it. */
  now: number;
  /** Values a path parameter of that name may take besides random text (real ids make a slip costly). */
  knownParams: Record<string, string[]>;
}

/**
 * Dates at the edges, by format: what the format must refuse (no year 0000, no 30 February, no 29 February of a
 * common year, no 24:00, no leap second, no offset of 24 hours, nothing outside years 0001 to 9999 UTC), and what it
 * must accept at the ends of its range (a route may still refuse those for its own reasons, never with a 5xx).
 */
export const DATE_EDGES: Record<DateFormat, { refused: string[]; accepted: string[] }> = {
  date: {
    refused: [
      '0000-01-01',
      '0000-12-31',
      '2026-02-30',
      '2025-02-29',
      '1900-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '10000-01-01',
      '2026-1-1',
      '2026-01-01T00:00:00Z',
    ],
    accepted: ['0001-01-01', '9999-12-31', '2000-02-29', '2024-02-29'],
  },
  'date-time': {
    refused: [
      '0000-01-01T00:00:00Z',
      '0001-01-01T00:00:00+00:01',
      '2026-02-30T00:00:00Z',
      '2025-02-29T12:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-06-30T23:59:60Z',
      '2026-01-01T00:60:00Z',
      '2026-01-01T00:00:00+24:00',
      '2026-01-01T00:00:00-00:60',
      '9999-12-31T23:59:59-00:01',
      '10000-01-01T00:00:00Z',
      '2026-01-01',
    ],
    accepted: ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '2024-02-29T23:59:59+14:00'],
  },
  'date-or-month': {
    refused: [
      '0000-01',
      '2026-13',
      '2026-00',
      '2026-1',
      '10000-01',
      '0000-01-01',
      '2026-02-30',
      '2025-02-29',
    ],
    accepted: ['0001-01', '9999-12', '0001-01-01', '9999-12-31', '2024-02-29'],
  },
};
export const DATE_FORMATS = ['date', 'date-time', 'date-or-month'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
const isDateFormat = (format: unknown): format is DateFormat =>
  (DATE_FORMATS as readonly unknown[]).includes(format);

const NOT_INSTANTS = [
  ...DATE_EDGES['date-time'].refused,
  '2026-13-01T00:00:00Z',
  '2026-01-01T25:00:00Z',
  '9999-12-31T23:59:59Z',
  'yesterday',
];
const NOT_CURRENCIES = ['ZZZ', 'usd', 'US', 'EURO', 'XYZ', 'U$D'];
/** Escapes that decode to no UTF-8 whatever follows them (so `%E0%A4%A` is not here: `%E0%A4%AA` is a letter). */
const BAD_ESCAPES = ['%ZZ', '%ED%A0%80', '%C0%AF', '%FF', '%E0%A4', '%F0%9F%98', '%G1'];
const LONE_SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff'];
const CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'image/png',
];
const BROKEN_JSON = ['{', '{"a":}', "{'a':1}", '{"a":1,}', '{"a":NaN}', '[1,2', 'nul', '{"a":1}x', '"\\x"'];

const schemaType = (schema: Schema): string | undefined =>
  typeof schema.type === 'string' ? schema.type : undefined;
const variants = (schema: Schema): Schema[] | undefined =>
  Array.isArray(schema.anyOf) && !schema.type ? (schema.anyOf as Schema[]) : undefined;
const isEnum = (schema: Schema) => 'const' in schema || Array.isArray(schema.enum);
const enumValues = (schema: Schema): unknown[] =>
  'const' in schema ? [schema.const] : ((schema.enum as unknown[] | undefined) ?? []);
const properties = (schema: Schema) => Object.entries((schema.properties ?? {}) as Record<string, Schema>);
const num = (value: unknown) => (typeof value === 'number' ? value : undefined);

const TOKEN_CHARACTERS = [...'abcdefghijklmnopqrstuvwxyz0123456789_-'];
const token = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...TOKEN_CHARACTERS), minLength: min, maxLength: Math.max(min, max) });

/** A value the schema accepts, from its keywords (and, for free text, from the field's name). */
export function validValue(schema: Schema, name: string, context: Context): fc.Arbitrary<unknown> {
  if (isEnum(schema)) return fc.constantFrom(...enumValues(schema));
  const union = variants(schema);
  if (union) return fc.oneof(...union.map((variant) => validValue(variant, name, context)));
  switch (schemaType(schema)) {
    case 'string':
      return validString(schema, name, context);
    case 'integer': {
      const min = num(schema.minimum) ?? 0;
      const max = Math.min(num(schema.maximum) ?? 1_000_000, min + 1_000_000);
      return fc.integer({ min, max });
    }
    case 'number': {
      const min = (num(schema.minimum) ?? num(schema.exclusiveMinimum) ?? 0) + 0.01;
      return fc.double({ min, max: Math.min(num(schema.maximum) ?? 1000, min + 1000), noNaN: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = num(schema.minItems) ?? 0;
      const items = validValue((schema.items ?? {}) as Schema, name, context);
      return fc.array(items, {
        minLength,
        maxLength: Math.max(minLength, Math.min(num(schema.maxItems) ?? 2, 2)),
      });
    }
    case 'object':
      return fc.record(
        Object.fromEntries(
          properties(schema).map(([key, property]) => [key, validValue(property, key, context)]),
        ),
      );
    default:
      return fc.constant('value');
  }
}

function validString(schema: Schema, name: string, context: Context): fc.Arbitrary<string> {
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = num(schema.maxLength) ?? 40;
  switch (schema.format) {
    case 'date-time':
      return fc.integer({ min: -120, max: 120 }).map((s) => new Date(context.now + s * 1000).toISOString());
    case 'date':
      return fc.constantFrom('1988-07-19', ...DATE_EDGES.date.accepted);
    case 'date-or-month':
      return fc.constantFrom('2026-01', '2026-01-31', ...DATE_EDGES['date-or-month'].accepted);
    case 'email':
      return fc.constantFrom('player@example.com', 'a.b+c@example.org');
    case 'iso4217':
      return fc.constantFrom('USD', 'EUR', 'GBP', 'JPY');
  }
  if (typeof schema.pattern === 'string') {
    if (schema.pattern.includes('{2}')) return fc.constantFrom('GB', 'US', 'DE');
    if (schema.pattern === '\\S') return token(Math.max(1, minLength), Math.min(maxLength, 30));
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => s.length >= minLength && s.length <= maxLength);
  }
  const byName: Record<string, string[]> = {
    ip_address: ['203.0.113.10', '81.2.69.142', '8.8.8.8', '2001:db8::1'],
    email: ['player@example.com', 'Jane.Doe+casino@gmail.com'],
    phone: ['+447700900123', '+14155550100'],
    url: ['https://example.com/webhook'],
  };
  const known = byName[name];
  if (known) return fc.constantFrom(...known.filter((value) => value.length <= maxLength));
  return token(Math.max(1, minLength), Math.max(Math.max(1, minLength), Math.min(maxLength, 24)));
}

/** Every field of a generated value with the schema that governs it, the value itself first. */
function fields(schema: Schema, value: unknown, path: Path = []): { path: Path; schema: Schema }[] {
  const here = { path, schema };
  const union = variants(schema);
  if (union) {
    // The variant the value was made from: the one whose properties hold all of the value's keys.
    const keys = value !== null && typeof value === 'object' ? Object.keys(value) : [];
    const variant =
      union.find(
        (v) => schemaType(v) === 'object' && keys.every((k) => k in ((v.properties ?? {}) as object)),
      ) ?? union[0]!;
    return [here, ...fields(variant, value, path).slice(1)];
  }
  if (schemaType(schema) === 'object' && value !== null && typeof value === 'object') {
    return [
      here,
      ...properties(schema).flatMap(([key, property]) =>
        key in value ? fields(property, (value as Record<string, unknown>)[key], [...path, key]) : [],
      ),
    ];
  }
  if (schemaType(schema) === 'array' && Array.isArray(value)) {
    return [here, ...value.flatMap((item, i) => fields((schema.items ?? {}) as Schema, item, [...path, i]))];
  }
  return [here];
}

/** A value the schema must refuse, with its name. Null: no fault of this schema is certain to be refused. */
function faultyValues(schema: Schema, value: unknown): fc.Arbitrary<[string, unknown]> | null {
  const options: fc.Arbitrary<[string, unknown]>[] = [];
  const add = (fault: string, values: fc.Arbitrary<unknown>) => options.push(values.map((v) => [fault, v]));
  const type = schemaType(schema);
  if (variants(schema)) return null;
  const text = typeof value === 'string' ? value : 'value';
  if (type === 'string' || isEnum(schema)) {
    add(
      'NUL in text',
      fc.nat({ max: text.length }).map((at) => `${text.slice(0, at)}\u0000${text.slice(at)}`),
    );
    add(
      'lone surrogate',
      fc
        .tuple(fc.nat({ max: text.length }), fc.constantFrom(...LONE_SURROGATES))
        .map(([at, s]) => `${text.slice(0, at)}${s}${text.slice(at)}`),
    );
    add('number for text', fc.integer());
    add('object for text', fc.constant({ value: text }));
    const max = num(schema.maxLength);
    if (max !== undefined && max < 5000)
      add(
        'text too long',
        fc.integer({ min: max + 1, max: max + 50 }).map((n) => 'x'.repeat(n)),
      );
    if ((num(schema.minLength) ?? 0) >= 1) add('empty text', fc.constant(''));
    if (isEnum(schema))
      add(
        'not one of the values',
        token(1, 20).filter((s) => !enumValues(schema).includes(s)),
      );
    if (schema.format === 'date-time') add('not a real instant', fc.constantFrom(...NOT_INSTANTS));
    if (schema.format === 'date') add('not a real date', fc.constantFrom(...DATE_EDGES.date.refused));
    if (schema.format === 'date-or-month')
      add('not a real day or month', fc.constantFrom(...DATE_EDGES['date-or-month'].refused));
    const window = schema['x-instant-window'] as { max_past_seconds: number | null } | undefined;
    if (schema.format === 'date-time' && window) {
      add('too far ahead', fc.constantFrom('2999-01-01T00:00:00Z', '2100-06-30T12:00:00.5+02:00'));
      if (window.max_past_seconds !== null)
        add('too long ago', fc.constantFrom('1971-01-01T00:00:00Z', '2001-09-09T01:46:40Z'));
    }
    if (schema.format === 'iso4217') add('not an ISO 4217 code', fc.constantFrom(...NOT_CURRENCIES));
  } else if (type === 'integer' || type === 'number') {
    add('text for a number', fc.constantFrom('12', '1e3', ''));
    add('boolean for a number', fc.boolean());
    if (type === 'integer') add('fraction', fc.constantFrom(1.5, 0.1, -2.25));
    const min = num(schema.minimum);
    const max = num(schema.maximum);
    if (min !== undefined) add('below the minimum', fc.integer({ min: min - 1000, max: min - 1 }));
    if (max !== undefined) add('above the maximum', fc.constantFrom(max + 1, max * 10 + 1, 1e300));
    if (num(schema.exclusiveMinimum) !== undefined)
      add('at the exclusive minimum', fc.constant(schema.exclusiveMinimum));
  } else if (type === 'boolean') {
    add('text for a boolean', fc.constantFrom('true', 'yes', ''));
  } else if (type === 'array') {
    add('object for a list', fc.constant({}));
    if ((num(schema.minItems) ?? 0) >= 1) add('empty list', fc.constant([]));
  } else if (type === 'object') {
    add('list for an object', fc.constant([value]));
    add('text for an object', fc.constant('{}'));
    add('null for an object', fc.constant(null));
    const present = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    const required = ((schema.required as string[] | undefined) ?? []).filter(
      (key) => !('default' in ((schema.properties as Record<string, Schema>)[key] ?? {})),
    );
    if (required.length > 0) {
      add(
        'a required field missing',
        fc
          .constantFrom(...required)
          .map((key) => Object.fromEntries(Object.entries(present).filter(([k]) => k !== key))),
      );
    }
    if (schema.additionalProperties === false)
      add(
        'an unknown field',
        token(1, 12).map((key) => ({ ...present, [`x_${key}`]: 1 })),
      );
    add('NUL in a key', fc.constant({ ...present, 'k\u0000': 'v' }));
    const limits = schema['x-json-limits'] as { max_depth: number; max_bytes: number } | undefined;
    if (limits) {
      add(
        'nested too deep',
        fc.integer({ min: limits.max_depth + 1, max: 3000 }).map((levels) => {
          let nested: object = {};
          for (let level = 1; level < levels; level++) nested = { d: nested };
          return nested;
        }),
      );
      add(
        'too large',
        fc.integer({ min: limits.max_bytes + 1, max: 200_000 }).map((bytes) => ({ note: 'x'.repeat(bytes) })),
      );
    }
  }
  return options.length === 0 ? null : fc.oneof(...options);
}

function setAt(root: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = (Array.isArray(root) ? [...root] : { ...(root as object) }) as Record<
    string | number,
    unknown
  >;
  const [head, ...rest] = path;
  copy[head!] = setAt(copy[head!], rest, replacement);
  return copy;
}

/** A fault somewhere in a value of the schema: one field chosen, then one of its certain-to-be-refused faults. */
function faultyDocument(schema: Schema, value: unknown): fc.Arbitrary<[string, unknown]> | null {
  const targets = fields(schema, value)
    .map((field) => ({
      ...field,
      faults: faultyValues(field.schema, getAt(value, field.path)),
    }))
    .filter(
      (field): field is typeof field & { faults: fc.Arbitrary<[string, unknown]> } => field.faults !== null,
    );
  if (targets.length === 0) return null;
  return fc
    .constantFrom(...targets)
    .chain((target) =>
      target.faults.map(([fault, bad]): [string, unknown] => [
        `${fault} at /${target.path.join('/')}`,
        setAt(value, target.path, bad),
      ]),
    );
}

const getAt = (root: unknown, path: Path): unknown =>
  path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], root);

const encodeQuery = (query: Record<string, unknown>) =>
  Object.entries(query)
    .flatMap(([key, value]) =>
      (Array.isArray(value) ? value : [value]).map(
        (v) => `${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`,
      ),
    )
    .join('&');

interface Parts {
  params: Record<string, string>;
  query: string;
  body: string | undefined;
  contentType: string | undefined;
  fault: string;
}

const withBody = (method: string) => method !== 'GET' && method !== 'HEAD';

/** Every fault that this route must refuse, each as an arbitrary of the request's parts. */
function faults(
  route: RouteSummary,
  base: { params: Record<string, string>; query: object; body: unknown },
): fc.WeightedArbitrary<Parts>[] {
  const schema = (route.schema ?? {}) as Record<string, Schema | undefined>;
  const json = base.body === undefined ? undefined : JSON.stringify(base.body);
  const parts = (over: Partial<Parts>): Parts => ({
    params: base.params,
    query: encodeQuery(base.query as Record<string, unknown>),
    body: json,
    contentType: json === undefined ? undefined : 'application/json',
    fault: '',
    ...over,
  });
  const options: fc.WeightedArbitrary<Parts>[] = [];
  // Faults in a field are drawn more often than the rest: there are more of them, and they reach deepest.
  const push = (weight: number, ...arbitraries: fc.Arbitrary<Parts>[]) =>
    options.push(...arbitraries.map((arbitrary) => ({ weight, arbitrary })));

  // The path: a broken escape anywhere in it (the router refuses it before any route runs).
  push(
    1,
    fc.tuple(fc.constantFrom(...BAD_ESCAPES), fc.nat()).map(([escape, at]) =>
      parts({
        fault: `path escape ${escape}@${at}`,
        params: { ...base.params, __path: `${escape}@${at}` },
      }),
    ),
  );

  // Path parameters: over the router's 200 characters, a broken escape, or a fault its schema refuses.
  for (const name of Object.keys(base.params)) {
    const paramSchema = (schema.params?.properties as Record<string, Schema> | undefined)?.[name];
    push(
      1,
      fc
        .integer({ min: 201, max: 2000 })
        .map((n) =>
          parts({ fault: `:${name} of ${n} characters`, params: { ...base.params, [name]: 'p'.repeat(n) } }),
        ),
      fc
        .constantFrom(...BAD_ESCAPES)
        .map((escape) =>
          parts({ fault: `:${name} with ${escape}`, params: { ...base.params, [name]: `id${escape}` } }),
        ),
    );
    if (paramSchema) {
      push(
        1,
        fc.constant(parts({ fault: `:${name} with NUL`, params: { ...base.params, [name]: `id%00` } })),
      );
      const bad = faultyValues({ ...paramSchema }, base.params[name]);
      if (bad) {
        push(
          2,
          bad
            .filter(
              ([fault, value]) =>
                typeof value === 'string' &&
                value.length > 0 &&
                value.length <= 200 &&
                !fault.includes('surrogate'),
            )
            .map(([fault, value]) =>
              parts({
                fault: `:${name} ${fault}`,
                params: { ...base.params, [name]: encodeURIComponent(value as string) },
              }),
            ),
        );
      }
    }
  }

  // The query string: a broken escape, a repeated parameter, or a fault its schema refuses.
  const querySchema = schema.querystring;
  if (querySchema) {
    const names = properties(querySchema).map(([key]) => key);
    const query = base.query as Record<string, unknown>;
    push(
      1,
      fc
        .tuple(fc.constantFrom(...names), fc.constantFrom(...BAD_ESCAPES))
        .map(([key, escape]) =>
          parts({ fault: `query ${key} with ${escape}`, query: `${encodeQuery(query)}&${key}=a${escape}` }),
        ),
    );
    const bad = faultyDocument(querySchema, query);
    if (bad) {
      push(
        4,
        bad
          // Text is all a query carries: faults that only a JSON type could express are not faults here.
          .filter(
            ([fault]) =>
              !/(number for text|object for|list for|null for|text for a|boolean for|fraction|surrogate|NUL in a key|nested|too large|an unknown field)/.test(
                fault,
              ),
          )
          .map(([fault, value]) =>
            parts({ fault: `query ${fault}`, query: encodeQuery(value as Record<string, unknown>) }),
          ),
      );
    }
  }

  if (withBody(route.method)) {
    // Any body: not JSON, or JSON that does not parse (refused before the route runs, schema or not).
    push(
      1,
      fc
        .constantFrom(...CONTENT_TYPES)
        .map((type) => parts({ fault: `content type ${type}`, body: json ?? 'x=1', contentType: type })),
      fc
        .constantFrom(...BROKEN_JSON)
        .map((text) => parts({ fault: `broken JSON ${text}`, body: text, contentType: 'application/json' })),
    );
    const bodySchema = schema.body;
    if (bodySchema) {
      push(
        1,
        fc
          .constantFrom('[]', '"text"', '42', 'true')
          .map((text) => parts({ fault: `body ${text}`, body: text })),
      );
      const bad = faultyDocument(bodySchema, base.body);
      if (bad)
        push(
          6,
          bad.map(([fault, value]) => parts({ fault: `body ${fault}`, body: JSON.stringify(value) })),
        );
    }
  }
  return options;
}

type BaseParts = { params: Record<string, string>; query: object; body: unknown };

/** Parts of a request that pass the route's schemas: path parameters, query and body. */
function validParts(route: RouteSummary, context: Context): fc.Arbitrary<BaseParts> {
  const schema = (route.schema ?? {}) as Record<string, Schema | undefined>;
  const paramNames = [...route.url.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!);
  const param = (name: string) =>
    fc.oneof(
      fc.constantFrom(...(context.knownParams[name] ?? ['id'])),
      schema.params
        ? (validValue(
            ((schema.params.properties as Record<string, Schema>)[name] ?? {}) as Schema,
            name,
            context,
          ) as fc.Arbitrary<string>)
        : token(1, 30),
    );
  return fc
    .record({
      params: fc.record(
        Object.fromEntries(
          paramNames.map((name) => [name, param(name).map((v) => encodeURIComponent(String(v)))]),
        ),
      ),
      query: schema.querystring ? validValue(schema.querystring, 'query', context) : fc.constant({}),
      body: schema.body ? validValue(schema.body, 'body', context) : fc.constant(undefined),
    })
    .map((parts) => parts as BaseParts);
}

function toRequest(route: RouteSummary, request: Parts, headers: Record<string, string>): GeneratedRequest {
  let url = route.url.replace(/:([a-z_]+)/g, (_, name: string) => request.params[name] ?? 'id');
  const escape = request.params.__path;
  if (escape) {
    const [text, at] = escape.split('@') as [string, string];
    const position = 1 + (Number(at) % (url.length - 1));
    url = `${url.slice(0, position)}${text}${url.slice(position)}`;
  }
  if (request.query) url += `?${request.query}`;
  return {
    method: route.method,
    url,
    headers: { ...headers, ...(request.contentType ? { 'content-type': request.contentType } : {}) },
    ...(request.body === undefined ? {} : { payload: request.body }),
    fault: request.fault,
  };
}

/** A malformed request to the route: valid parts from its schemas, then one certain fault (and the odd extra). */
export function malformedRequest(
  route: RouteSummary,
  context: Context,
  auth: fc.Arbitrary<Record<string, string>>,
): fc.Arbitrary<GeneratedRequest> {
  return fc
    .tuple(validParts(route, context), auth)
    .chain(([parts, headers]) => fc.oneof(...faults(route, parts)).map((request) => ({ request, headers })))
    .map(({ request, headers }) => toRequest(route, request, headers));
}

/** A field of a route's body or query string that holds a date or a timestamp. */
export interface DateField {
  part: 'body' | 'querystring';
  path: Path;
  format: DateFormat;
}

/** Every date and timestamp field of the route's body and query string, found in its schemas (`format`). */
export function dateFields(route: RouteSummary): DateField[] {
  const schema = (route.schema ?? {}) as Record<string, Schema | undefined>;
  const found: DateField[] = [];
  const walk = (node: Schema, part: DateField['part'], path: Path) => {
    if (isDateFormat(node.format)) found.push({ part, path, format: node.format });
    for (const variant of variants(node) ?? []) walk(variant, part, path);
    for (const [key, property] of properties(node)) walk(property, part, [...path, key]);
    if (node.items) walk(node.items as Schema, part, [...path, 0]);
  };
  for (const part of ['body', 'querystring'] as const) {
    const partSchema = schema[part];
    if (partSchema) walk(partSchema, part, []);
  }
  return found;
}

/** A request that passes the route's schemas except, perhaps, for `value` in the date field. */
export function datedRequest(
  route: RouteSummary,
  context: Context,
  field: DateField,
  value: string,
  headers: Record<string, string>,
): fc.Arbitrary<GeneratedRequest> {
  return validParts(route, context).map((parts) => {
    const query = field.part === 'querystring' ? setAt(parts.query, field.path, value) : parts.query;
    const body = field.part === 'body' ? setAt(parts.body, field.path, value) : parts.body;
    const json = body === undefined ? undefined : JSON.stringify(body);
    return toRequest(
      route,
      {
        params: parts.params,
        query: encodeQuery(query as Record<string, unknown>),
        body: json,
        contentType: json === undefined ? undefined : 'application/json',
        fault: `${value} at ${field.part} /${field.path.join('/')}`,
      },
      headers,
    );
  });
}
