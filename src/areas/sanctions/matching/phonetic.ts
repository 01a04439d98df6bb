import { doubleMetaphone } from 'double-metaphone';

// Letter groups that transliteration systems spell differently for one sound (خ kh/h, ق q/k, ث th/s, ж zh/j…).
const DIGRAPHS: ReadonlyArray<[RegExp, string]> = [
  [/kh/g, 'k'],
  [/gh/g, 'g'],
  [/ph/g, 'f'],
  [/th/g, 't'],
  [/dh/g, 'd'],
  // ش and ш stay apart from س and с ("Hesham" is not "Husam"); a lone sh/s slip is a typo, not a skeleton match.
  [/sh/g, 'S'],
  [/zh/g, 'j'],
  [/dj/g, 'j'],
  [/ck/g, 'k'],
  [/[cq]/g, 'k'],
  [/x/g, 'ks'],
  // z stays apart from s: ز, з and ظ are written z in every system ("Azzam" is not "Essam").
  [/v/g, 'f'],
];

/**
 * The consonant skeleton of a Latin token (lower case, but sh as "S"): digraphs folded, vowels and the half-vowels w/y dropped, doubled letters
 * collapsed, a final h (Arabic ة) dropped. Arabic and Hebrew script write no short vowels, so "mhmd" (محمد) and
 * "Muhammad" / "Mohamed" share the skeleton "mhmd"; Latin spellings that differ only in vowels do too.
 */
export function skeletonKey(token: string): string {
  let key = token;
  for (const [pattern, replacement] of DIGRAPHS) key = key.replace(pattern, replacement);
  key = key.replace(/[aeiouwy]/g, '').replace(/(.)\1+/g, '$1');
  if (key.length > 2 && key.endsWith('h')) key = key.slice(0, -1);
  return key;
}

/** The primary Double Metaphone code: one key for Latin spellings that sound alike ("Schmidt", "Smith" → SMT). */
export function metaphoneKey(token: string): string {
  return doubleMetaphone(token)[0];
}

/**
 * The vowel shape of a folded Latin token as a number: how many vowel groups it has and which of them are two
 * letters or more (a diphthong, often ي or و). Romanisations of one name agree on it ("Muhammad", "Mohamed":
 * three single vowels; "Hussein", "Husayn": single, double); names that merely share consonants often do not
 * ("Mahmoud" two groups, "Mohamed" three; "Hussain" has a diphthong, "Hasan" none).
 */
export function vowelShape(folded: string): number {
  // One base-3 digit per group, 1 for a single vowel and 2 for more: no digit is 0, so no two shapes collide.
  let shape = 0;
  for (const group of folded.match(/[aeiou]+/g) ?? []) shape = shape * 3 + (group.length >= 2 ? 2 : 1);
  return shape;
}

// Spellings romanisation systems give one sound, folded to one: й/и/ы as y, j or i ("Yuriy", "Jurij", "Iurii"),
// у as ou or u, х as kh or h, ш as sch or sh, long vowels doubled or not ("Saeedi", "Saidi").
const FOLDS: ReadonlyArray<[RegExp, string]> = [
  [/sch/g, 'sh'],
  [/kh/g, 'h'],
  [/gh/g, 'g'],
  [/ph/g, 'f'],
  [/w/g, 'v'],
  [/q/g, 'k'],
  [/ou|oo/g, 'u'],
  [/ee/g, 'i'],
  [/[yj]/g, 'i'],
  [/([^aeiou])\1/g, '$1'],
];

/** A Latin token with the letters romanisation systems disagree on folded together, vowels kept. */
export function foldedKey(token: string): string {
  let key = token;
  for (const [pattern, replacement] of FOLDS) key = key.replace(pattern, replacement);
  return key;
}
