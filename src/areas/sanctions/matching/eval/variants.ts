import type { SeededRandom } from './seeded-random.js';

export type VariantKind = 'typo' | 'reorder' | 'dropped_middle' | 'extra_part' | 'transliteration';
export const VARIANT_KINDS: readonly VariantKind[] = [
  'typo',
  'reorder',
  'dropped_middle',
  'extra_part',
  'transliteration',
];

/** Data the variants draw on; without it they fall back to built-in rules and a few common name parts. */
export interface VariantSources {
  /** Each spelling (lower case) → every spelling of that word, itself included (romanisation systems). */
  spellings?: ReadonlyMap<string, readonly string[]>;
  /** Name parts a subject may add that the list does not print: common given names and surnames. */
  name_parts?: readonly string[];
}

const COMMON_NAME_PARTS = [
  'Maria',
  'Ali',
  'John',
  'Ahmed',
  'Anna',
  'Hassan',
  'Ivanovna',
  'Lopez',
  'Kumar',
  'Li',
];

/** The spelling table from groups of spellings of one word (scripts/eval-data/transliterations.json). */
export function spellingTable(groups: ReadonlyArray<readonly string[]>): Map<string, readonly string[]> {
  const table = new Map<string, readonly string[]>();
  for (const group of groups) for (const spelling of group) table.set(spelling, group);
  return table;
}

/** The word's case kept on a replacement: all capitals, or a capital first letter, or as given. */
function inCaseOf(word: string, replacement: string): string {
  if (word.length > 1 && word === word.toUpperCase()) return replacement.toUpperCase();
  if (word[0] !== undefined && word[0] === word[0].toUpperCase())
    return replacement.charAt(0).toUpperCase() + replacement.slice(1);
  return replacement;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One keyboard-style slip in a word: a letter replaced, dropped, added, or two neighbours swapped. */
export function typo(word: string, random: SeededRandom): string {
  const at = random.int(word.length);
  const letter = random.pick([...LETTERS]);
  switch (random.int(word.length >= 2 ? 4 : 2)) {
    case 0:
      return word.slice(0, at) + (word[at] === letter ? 'x' : letter) + word.slice(at + 1);
    case 1:
      return word.slice(0, at) + letter + word.slice(at);
    case 2:
      return word.slice(0, at) + word.slice(at + 1);
    default: {
      const i = Math.min(at, word.length - 2);
      return word.slice(0, i) + (word[i + 1] ?? '') + (word[i] ?? '') + word.slice(i + 2);
    }
  }
}

// Spellings that different transliteration systems (or habits) give the same sound.
const RULES: ReadonlyArray<[RegExp, string]> = [
  [/ou/i, 'u'],
  [/u/i, 'ou'],
  [/ee/i, 'i'],
  [/i/i, 'y'],
  [/y/i, 'i'],
  [/o/i, 'u'],
  [/e/i, 'a'],
  [/kh/i, 'h'],
  [/q/i, 'k'],
  [/k/i, 'q'],
  [/c/i, 'k'],
  [/ph/i, 'f'],
  [/j/i, 'dj'],
  [/dzh/i, 'j'],
  [/zh/i, 'j'],
  [/sh/i, 'sch'],
  [/w/i, 'v'],
  [/v/i, 'w'],
  [/x/i, 'ks'],
  [/z/i, 's'],
  [/ts/i, 'tz'],
  [/iy$/i, 'ii'],
  [/ov$/i, 'off'],
  [/ev$/i, 'eff'],
  [/ya/i, 'ia'],
  [/yu/i, 'iu'],
  [/dh/i, 'z'],
  [/th/i, 't'],
  [/gh/i, 'g'],
  [/([bcdfgklmnprst])\1/i, '$1'],
  [/a$/i, 'ah'],
  [/ah$/i, 'a'],
];
const WHOLE_WORDS: Record<string, string[]> = {
  mohammed: ['Muhammad', 'Mohamed', 'Mohammad'],
  muhammad: ['Mohammed', 'Mohamed'],
  mohammad: ['Muhammad', 'Mohammed'],
  mohamed: ['Muhammad', 'Mohammed'],
  hussein: ['Husayn', 'Hussain'],
  husayn: ['Hussein', 'Husain'],
  hassan: ['Hasan'],
  abdul: ['Abd al', 'Abdel'],
  abdel: ['Abdul', 'Abd al'],
  yusuf: ['Youssef', 'Yousef'],
  osama: ['Usama'],
  usama: ['Osama'],
};

/** The word as another romanisation system spells it (from the table), or undefined when it is not there. */
function tableVariant(
  word: string,
  random: SeededRandom,
  spellings: ReadonlyMap<string, readonly string[]> | undefined,
): string | undefined {
  const others = spellings?.get(word.toLowerCase())?.filter((spelling) => spelling !== word.toLowerCase());
  return others === undefined || others.length === 0 ? undefined : inCaseOf(word, random.pick(others));
}

/** The word as another transliteration system would spell it, or undefined when no rule applies. */
export function transliterationVariant(word: string, random: SeededRandom): string | undefined {
  const whole = WHOLE_WORDS[word.toLowerCase()];
  if (whole !== undefined) return random.pick(whole);
  const applicable = RULES.filter(([pattern]) => pattern.test(word.slice(1)));
  if (applicable.length === 0) return undefined;
  const [pattern, replacement] = random.pick(applicable);
  // The first letter stays: people spelling a foreign name rarely change how it starts.
  return (word[0] ?? '') + word.slice(1).replace(pattern, replacement);
}

/**
 * A variant of a listed name (its words in list order), or undefined when the kind does not apply (a one-word
 * name cannot be reordered or gain a middle name, a two-word name has no middle name to drop).
 */
export function nameVariant(
  words: string[],
  kind: VariantKind,
  random: SeededRandom,
  sources: VariantSources = {},
): string[] | undefined {
  const out = [...words];
  const longWords = words.map((word, i) => (word.length >= 3 ? i : -1)).filter((i) => i >= 0);
  switch (kind) {
    case 'typo': {
      const i = longWords.length > 0 ? random.pick(longWords) : random.int(words.length);
      out[i] = typo(words[i] ?? '', random);
      return out;
    }
    case 'reorder':
      return words.length >= 2 ? [...words.slice(1), words[0] ?? ''] : undefined;
    case 'dropped_middle': {
      if (words.length < 3) return undefined;
      const dropped = 1 + random.int(words.length - 2);
      return out.filter((_, i) => i !== dropped);
    }
    case 'extra_part': {
      // A middle name or a second surname the list does not print: after the first word, anywhere up to the end.
      if (words.length < 2) return undefined;
      const part = random.pick(sources.name_parts ?? COMMON_NAME_PARTS);
      const at = 1 + random.int(words.length);
      return [...words.slice(0, at), inCaseOf(words[0] ?? '', part.toLowerCase()), ...words.slice(at)];
    }
    case 'transliteration': {
      // Published romanisations first (Cyrillic names), then the rules.
      const order = random.shuffle(words.map((_, index) => index));
      for (const i of order) {
        const variant = tableVariant(words[i] ?? '', random, sources.spellings);
        if (variant !== undefined) {
          out[i] = variant;
          return out;
        }
      }
      for (const i of order) {
        const variant = transliterationVariant(words[i] ?? '', random);
        if (variant !== undefined && variant.toLowerCase() !== words[i]?.toLowerCase()) {
          out[i] = variant;
          return out;
        }
      }
      return undefined;
    }
  }
}
