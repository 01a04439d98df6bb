import { addUtcDays, DAY_MS, parseUtcDay, utcDay } from '../../../../platform/utc-calendar.js';

/** A small deterministic PRNG (mulberry32): the evaluation's queries are the same on every run and machine. */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [items[i], items[j]] = [items[j] as T, items[i] as T];
    }
    return items;
  }

  /** A day (YYYY-MM-DD) between two days inclusive. */
  day(from: string, to: string): string {
    const start = parseUtcDay(from);
    const days = Math.max(0, Math.round((parseUtcDay(to).getTime() - start.getTime()) / DAY_MS));
    return utcDay(addUtcDays(start, this.int(days + 1)));
  }
}
