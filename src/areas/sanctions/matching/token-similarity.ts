import { distance } from 'fastest-levenshtein';
import { foldedKey, metaphoneKey, skeletonKey, vowelShape } from './phonetic.js';
import { jaroWinkler, withinOneEdit } from './similarity.js';
import { CANONICAL_PREFIXES, PARTICLES } from './stop-words.js';

/** A token with the keys it is compared and looked up by. */
export interface TokenInfo {
  text: string;
  /** Written in Arabic or Hebrew script: its transliteration lacks short vowels. */
  abjad: boolean;
  skeleton: string;
  metaphone: string;
  /** The vowel shape of a Latin token (`vowelShape`; 0 for an abjad one): spellings of one name agree on it. */
  vowels: number;
  /** The Latin token with the letters romanisation systems disagree on folded together ("yuriy" → "iurii"). */
  folded: string;
}

export function tokenInfo(text: string, abjad: boolean): TokenInfo {
  const folded = abjad ? text : foldedKey(text);
  return {
    text,
    abjad,
    skeleton: skeletonKey(text),
    metaphone: metaphoneKey(text),
    vowels: abjad ? 0 : vowelShape(folded),
    folded,
  };
}

/** Below this a token pair counts as different; JW gives unrelated short names about 0.6. */
export const MIN_TOKEN_SIMILARITY = 0.78;
/** Below this, a resemblance needs related first letters ("Taraneh" / "Farzaneh" 0.79 is chance). */
const LOOSE_SIMILARITY = 0.85;

/**
 * Spelling similarity: the mean of Jaro-Winkler (kind to a typo, rewards a shared start) and normalised
 * Levenshtein (punishes length differences, which JW overlooks: "ali" inside "walid" gives JW 0.87).
 */
export function spellingSimilarity(a: string, b: string): number {
  const levenshtein = 1 - distance(a, b) / Math.max(a.length, b.length, 1);
  return Math.max((jaroWinkler(a, b) + levenshtein) / 2, typoSimilarity(a, b));
}

/** A single slip (one letter wrong, missing, extra, or two swapped) in a word of three letters or more. */
export function typoSimilarity(a: string, b: string): number {
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
 * A token the normaliser shortened ("Abdul" → "abd", "Abdullah" → "abdlah") against one it left as written
 * ("Abdlu", "Adbullah" — a slip in the prefix stops the shortening): compared as the first would have been written.
 */
function writtenFormSimilarity(a: string, b: string): number {
  for (const { canonical, written } of CANONICAL_PREFIXES) {
    if (!a.startsWith(canonical)) continue;
    let best = 0;
    for (const form of written)
      best = Math.max(best, spellingSimilarity(form + a.slice(canonical.length), b));
    return best;
  }
  return 0;
}

// Letters one sound's spellings may start with (Yuliya / Iuliia / Julija, Kohen / Cohen, Fuad / Phuad).
const INITIAL_GROUPS = ['aeiouyjw', 'ckqgh', 'csxz', 'fpvwb', 'dtj', 'gjdz'];
const initialsAgree = (a: string, b: string): boolean =>
  a[0] === b[0] || INITIAL_GROUPS.some((group) => group.includes(a[0] ?? '-') && group.includes(b[0] ?? '-'));

/** An Arabic article written onto the name ("Alzaidi") against the name without it (articles are dropped). */
function withArticle(a: string, b: string): boolean {
  return a.length >= b.length + 2 && b.length >= 3 && a.endsWith(b) && PARTICLES.has(a.slice(0, -b.length));
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
    // Equal consonants count as a transliteration only with the same vowel shape ("Mahmoud" is not "Mohamed")
    // and a related first letter (a leading vowel is a consonant of its own in Arabic: "Ahmed" is not "Hamad").
    const sameShape = a.vowels === b.vowels && initialsAgree(a.text, b.text);
    if (sameShape && a.skeleton === b.skeleton && a.skeleton.length >= 3) best = Math.max(best, 0.9);
    // Double Metaphone drops h and folds d/t, g/k and ch/k: it counts only where the consonants start alike and
    // are as many ("Kohen" / "Cohen", not "Acar" / "Achour").
    if (
      sameShape &&
      a.metaphone === b.metaphone &&
      a.metaphone.length >= 3 &&
      a.skeleton[0] === b.skeleton[0] &&
      a.skeleton.length === b.skeleton.length
    )
      best = Math.max(best, 0.88);
    if (best < 0.9) {
      // Two romanisations of one name ("Yuliya" / "Iuliia", "Mukhammad" / "Muhammad"), or one with a slip.
      if (a.folded === b.folded) best = 0.9;
      else if (Math.min(a.folded.length, b.folded.length) >= 4 && withinOneEdit(a.folded, b.folded))
        best = Math.max(best, 0.86);
      best = Math.max(best, writtenFormSimilarity(a.text, b.text), writtenFormSimilarity(b.text, a.text));
      if (withArticle(a.text, b.text) || withArticle(b.text, a.text)) best = Math.max(best, 0.92);
    }
  }
  // A loose resemblance (no single slip, no shared key) of names that start with unrelated letters is chance.
  if (best < LOOSE_SIMILARITY && !initialsAgree(a.text, b.text) && typoSimilarity(a.text, b.text) === 0)
    return 0;
  return best >= MIN_TOKEN_SIMILARITY ? best : 0;
}

/**
 * True when two paired tokens differ only as transliterations of one name do: in tokens of five letters or
 * more, the same folded spelling ("Yuliya" / "Iuliia") or the same consonants and vowel groups ("Hisham" /
 * "Hesham"); or a token from an abjad script, which has no
 * vowels to differ in. Short tokens are excluded: "Tang" and "Tong" are different names.
 */
export function transliterationOnly(a: TokenInfo, b: TokenInfo): boolean {
  if (a.abjad || b.abjad) return true;
  if (Math.min(a.text.length, b.text.length) < 5) return false;
  if (a.folded === b.folded) return true;
  return (
    a.skeleton === b.skeleton &&
    a.skeleton.length >= 2 &&
    a.vowels === b.vowels &&
    initialsAgree(a.text, b.text)
  );
}
