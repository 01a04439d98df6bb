/**
 * Text that cannot be stored faithfully: a NUL character (PostgreSQL text and jsonb refuse it) or a lone UTF-16
 * surrogate (it has no UTF-8 form, so the driver writes U+FFFD and two different ids become one). Checked once for
 * every route, in every string value and object key of a body, query string or path parameter.
 */

interface WellFormed {
  isWellFormed(): boolean;
}
const illFormed = (text: string) => text.includes('\0') || !(text as string & WellFormed).isWellFormed();

/** A key as it reads in a JSON pointer: `~` and `/` escaped, characters that cannot be shown as \u escapes. */
const pointerSegment = (key: string) =>
  JSON.stringify(key).slice(1, -1).replace(/~/g, '~0').replace(/\//g, '~1');

/** Whether any string or key holds a NUL or a lone surrogate: the common case, so it builds no paths. */
function holdsIllFormedText(data: unknown): boolean {
  const stack: unknown[] = [data];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (illFormed(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const key in value) {
        if (illFormed(key)) return true;
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/**
 * The JSON pointer of the first string or key holding a NUL or a lone surrogate, or undefined when there is none.
 * Iterative, so a deeply nested value costs no stack.
 */
export function findIllFormedText(data: unknown): string | undefined {
  if (!holdsIllFormedText(data)) return undefined;
  const stack: [unknown, string][] = [[data, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (illFormed(value)) return path;
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push([value[index], `${path}/${index}`]);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value).reverse()) {
        const childPath = `${path}/${pointerSegment(key)}`;
        if (illFormed(key)) return childPath;
        stack.push([child, childPath]);
      }
    }
  }
  return undefined;
}

/** Set on a parsed query string some of whose text is not percent-encoded UTF-8 (`%ZZ`, `%ED%A0%80`). */
export const MALFORMED_QUERY = Symbol('malformed query');

const decodeComponent = (text: string): string | undefined => {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
};

/**
 * The query-string parser: fast-querystring's rules (`+` is a space, a repeated key gives an array, a
 * null-prototype object), except that text which does not decode is marked MALFORMED_QUERY for the validator to
 * refuse rather than passed on undecoded as if it were the value meant.
 */
export function parseQueryString(query: string): Record<string | symbol, unknown> {
  const result: Record<string | symbol, unknown> = Object.create(null);
  if (query.length === 0) return result;
  for (const pair of query.split('&')) {
    if (pair.length === 0) continue;
    const equals = pair.indexOf('=');
    const rawKey = equals === -1 ? pair : pair.slice(0, equals);
    const rawValue = equals === -1 ? '' : pair.slice(equals + 1);
    const key = decodeComponent(rawKey);
    const value = decodeComponent(rawValue);
    if (key === undefined || value === undefined) {
      result[MALFORMED_QUERY] = true;
      continue;
    }
    const existing = result[key];
    if (existing === undefined) result[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else result[key] = [existing, value];
  }
  return result;
}
