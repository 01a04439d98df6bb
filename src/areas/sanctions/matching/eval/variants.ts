import type { SeededRandom } from './seeded-random.js';

export type VariantKind = 'typo' | 'reorder' | 'dropped_middle' | 'transliteration';
export const VARIANT_KINDS: readonly VariantKind[] = ['typo', 'reorder', 'dropped_middle', 'transliteration'];

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
 * name cannot be reordered, a two-word name has no middle name).
 */
export function nameVariant(words: string[], kind: VariantKind, random: SeededRandom): string[] | undefined {
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
    case 'transliteration': {
      for (const i of random.shuffle(words.map((_, index) => index))) {
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
