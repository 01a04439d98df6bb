/** What a request's log lines carry of the caller's trace (W3C Trace Context). */
export interface TraceFields {
  trace_id: string;
  /** The caller's span (the header's parent-id): the service's lines join the trace under it. */
  span_id: string;
}

// version-traceid-parentid-flags, lowercase hex; a later version may append fields after a dash.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(-.*)?$/;
const MAX_LENGTH = 512;
const ALL_ZEROS = /^0+$/;

/**
 * The trace and span of a `traceparent` header, or undefined when it is absent or malformed (ignored, as the
 * W3C recommendation says a receiver must: a bad header never fails a request). Sent twice, it is malformed.
 */
export function traceFields(header: string | string[] | undefined): TraceFields | undefined {
  if (typeof header !== 'string' || header.length > MAX_LENGTH) return undefined;
  const match = TRACEPARENT.exec(header);
  if (!match) return undefined;
  const [, version, traceId, spanId, rest] = match;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (ALL_ZEROS.test(traceId!) || ALL_ZEROS.test(spanId!)) return undefined;
  return { trace_id: traceId!, span_id: spanId! };
}
