/** Latency summary of one phase, in milliseconds. */
export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function summarise(latencies: Float64Array | number[]): LatencySummary {
  const sorted = Float64Array.from(latencies).sort();
  const at = (q: number) =>
    sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return {
    count: sorted.length,
    p50: round(at(0.5)),
    p90: round(at(0.9)),
    p99: round(at(0.99)),
    max: round(sorted.length === 0 ? 0 : sorted[sorted.length - 1]!),
  };
}

export const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places;

/** A small deterministic PRNG (mulberry32), so that runs draw the same users and amounts. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
