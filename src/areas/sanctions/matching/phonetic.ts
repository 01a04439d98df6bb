import { doubleMetaphone } from 'double-metaphone';

// Letter groups that transliteration systems spell differently for one sound (خ kh/h, ق q/k, ث th/s, ж zh/j…).
const DIGRAPHS: ReadonlyArray<[RegExp, string]> = [
  [/kh/g, 'k'],
  [/gh/g, 'g'],
  [/ph/g, 'f'],
  [/th/g, 't'],
  [/dh/g, 'd'],
  [/sh/g, 's'],
  [/zh/g, 'j'],
  [/dj/g, 'j'],
  [/ck/g, 'k'],
  [/[cq]/g, 'k'],
  [/x/g, 'ks'],
  [/z/g, 's'],
  [/v/g, 'f'],
];

/**
 * The consonant skeleton of a Latin token: digraphs folded, vowels and the half-vowels w/y dropped, doubled letters
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
