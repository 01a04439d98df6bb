import { distance } from 'fastest-levenshtein';
import { metaphoneKey, skeletonKey } from './phonetic.js';
import { jaroWinkler, withinOneEdit } from './similarity.js';

/** A token with the keys it is compared and looked up by. */
export interface TokenInfo {
  text: string;
  /** Written in Arabic or Hebrew script: its transliteration lacks short vowels. */
  abjad: boolean;
  skeleton: string;
  metaphone: string;
}

export function tokenInfo(text: string, abjad: boolean): TokenInfo {
  return { text, abjad, skeleton: skeletonKey(text), metaphone: metaphoneKey(text) };
}

/** Below this a token pair counts as different; JW gives unrelated short names about 0.6. */
export const MIN_TOKEN_SIMILARITY = 0.78;

/**
 * Spelling similarity: the mean of Jaro-Winkler (kind to a typo, rewards a shared start) and normalised
 * Levenshtein (punishes length differences, which JW overlooks: "ali" inside "walid" gives JW 0.87).
 */
export function spellingSimilarity(a: string, b: string): number {
  const levenshtein = 1 - distance(a, b) / Math.max(a.length, b.length, 1);
  return Math.max((jaroWinkler(a, b) + levenshtein) / 2, typoSimilarity(a, b));
}

/** A single slip (one letter wrong, missing, extra, or two swapped) in a word of three letters or more. */
function typoSimilarity(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  if (length < 3 || !withinOneEdit(a, b)) return 0;
  return length >= 5 ? 0.92 : length === 4 ? 0.88 : 0.82;
}

// Equal skeletons of an abjad token and a Latin one: longer skeletons are stronger evidence ("mhmd" vs "drs").
function skeletonAgreement(a: TokenInfo, b: TokenInfo): number {
  const [abjad, latin] = a.abjad ? [a, b] : [b, a];
  if (a.skeleton.length >= 4) return 0.93;
  if (a.skeleton.length === 3) return 0.88;
  // A one- or two-consonant skeleton ("ly" for علي) only vouches for a Latin name about as short ("Ali", not "Layla").
  // Even then it is weak: two such tokens alone stay below a hit.
  return latin.abjad || latin.text.length <= abjad.text.length + 2 ? 0.8 : 0;
}

/**
 * How alike two name tokens are (0–1). Spelling first; then, for a token from an abjad script, its consonant
 * skeleton, since "mhmd" must meet "Mohammed"; for Latin pairs, equal skeletons or Double Metaphone codes count
 * as a transliteration variant (0.88–0.9), like a one-letter typo in a long name.
 */
export function tokenSimilarity(a: TokenInfo, b: TokenInfo): number {
  if (a.text === b.text) return 1;
  let best = spellingSimilarity(a.text, b.text);
  if (a.abjad || b.abjad) {
    if (a.skeleton === b.skeleton && a.skeleton !== '') best = Math.max(best, skeletonAgreement(a, b));
    else if (a.skeleton.length >= 3 && b.skeleton.length >= 3) {
      best = Math.max(best, 0.9 * spellingSimilarity(a.skeleton, b.skeleton));
    }
  } else {
    if (a.skeleton === b.skeleton && a.skeleton.length >= 3) best = Math.max(best, 0.9);
    if (a.metaphone === b.metaphone && a.metaphone.length >= 3) best = Math.max(best, 0.88);
  }
  return best >= MIN_TOKEN_SIMILARITY ? best : 0;
}
