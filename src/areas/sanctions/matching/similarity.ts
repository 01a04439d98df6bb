/**
 * Jaro-Winkler similarity (0–1) of two strings: tolerant of a typo or a transposition, and rewards a shared prefix,
 * which suits names (people misspell the end of a name more often than its start).
 */
// Match flags reused across calls: names are short, and a fresh array per comparison would feed the collector.
const flagsA = new Uint8Array(64);
const flagsB = new Uint8Array(64);

export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1);
  const matchedA = la <= 64 ? flagsA.fill(0, 0, la) : new Uint8Array(la);
  const matchedB = lb <= 64 ? flagsB.fill(0, 0, lb) : new Uint8Array(lb);
  let matches = 0;
  for (let i = 0; i < la; i++) {
    const start = Math.max(0, i - window);
    const end = Math.min(lb - 1, i + window);
    for (let j = start; j <= end; j++) {
      if (matchedB[j] === 1 || a.charCodeAt(i) !== b.charCodeAt(j)) continue;
      matchedA[i] = 1;
      matchedB[j] = 1;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  for (let i = 0, j = 0; i < la; i++) {
    if (matchedA[i] !== 1) continue;
    while (matchedB[j] !== 1) j++;
    if (a.charCodeAt(i) !== b.charCodeAt(j)) transpositions++;
    j++;
  }
  const jaro = (matches / la + matches / lb + (matches - transpositions / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < la && prefix < lb && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/** True when one edit (a letter replaced, added, dropped, or two neighbours swapped) turns `a` into `b`. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
