/** Seconds, the unit of the spec's durations and of the test clock (`t.advance(seconds)`). */
export const MINUTE = 60;
export const HOUR = 3_600;
export const DAY = 86_400;

/** US dollars to cents, for readable amounts in tests. */
export const usd = (dollars: number) => Math.round(dollars * 100);
