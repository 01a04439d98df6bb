import { describe, expect, it } from 'vitest';
import { traceFields } from './trace-context.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('a traceparent header', () => {
  it('gives the trace and the caller span of a well-formed header', () => {
    expect(traceFields(`00-${TRACE}-${SPAN}-01`)).toEqual({ trace_id: TRACE, span_id: SPAN });
    // A later version may carry more fields; what version 00 defines is still read.
    expect(traceFields(`01-${TRACE}-${SPAN}-00-more`)).toEqual({ trace_id: TRACE, span_id: SPAN });
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['sent twice', [`00-${TRACE}-${SPAN}-01`, `00-${TRACE}-${SPAN}-01`]],
    ['upper-case hex', `00-${TRACE.toUpperCase()}-${SPAN}-01`],
    ['a short trace id', `00-${TRACE.slice(1)}-${SPAN}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${SPAN}-01`],
    ['an all-zero span id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['the forbidden version ff', `ff-${TRACE}-${SPAN}-01`],
    ['version 00 with a field more', `00-${TRACE}-${SPAN}-01-extra`],
    ['no flags', `00-${TRACE}-${SPAN}`],
    ['far too long', `01-${TRACE}-${SPAN}-01-${'a'.repeat(600)}`],
  ])('ignores one %s', (_what, header) => {
    expect(traceFields(header)).toBeUndefined();
  });
});
