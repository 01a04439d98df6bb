import anyAscii from 'any-ascii';
import type { SanctionsEntityType } from '../lists/entity.js';
import { CANONICAL_PREFIXES, HONORIFICS, LEGAL_FORMS, PARTICLES } from './stop-words.js';

/** A name reduced to comparable tokens. `abjad[i]` marks tokens written in Arabic or Hebrew script (no vowels). */
export interface NormalisedName {
  tokens: string[];
  abjad: boolean[];
}

// Scripts that write consonants only: their transliteration has no short vowels, so it is compared by skeleton.
const ABJAD = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;
// Scripts whose transliteration comes out as run-together capitalised syllables ("XiJinPing").
const SYLLABIC = /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const NON_LATIN = /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;
// Apostrophes and ayn/hamza marks join their neighbours ("O'Brien", "Ba'asyir"); other punctuation splits.
const JOINERS = /['’‘ʼʻ`´ʿʾ]/gu;
const SPLITTERS = /[^\p{L}\p{N}]+/u;
// The Arabic article written onto the next word ("الرحمن"): split off so it is treated like Latin "al-".
// Dotted abbreviations of organisations ("S.A.", "L.L.C."): the dots go, so the legal form is one word.
const ABBREVIATION_DOT = /(?<=(?:^|[^\p{L}])\p{L})\.(?=\p{L}(?:[^\p{L}]|$))/gu;
const ARABIC_ARTICLE = /(^|[\s\u0640-])ال(?=\p{Script=Arabic})/gu;

// A prefix is shortened only before three more letters or alone ("Abdulrahman", "Abdul"; not "Abdullo").
const PREFIX_PATTERNS = CANONICAL_PREFIXES.map(({ canonical, written, whole_word }) => ({
  pattern: new RegExp(`^(${written.join('|')})${whole_word ? '$' : '(?=[a-z]{3}|$)'}`),
  canonical,
}));

function canonical(token: string): string {
  for (const { pattern, canonical } of PREFIX_PATTERNS)
    if (pattern.test(token)) return token.replace(pattern, canonical);
  return token;
}

/** True when the text holds any letter outside the Latin script. */
export function hasNonLatin(text: string): boolean {
  return NON_LATIN.test(text.replace(/[^\p{L}]/gu, ''));
}

function transliterate(rawToken: string): string[] {
  if (!SYLLABIC.test(rawToken)) return [anyAscii(rawToken)];
  // Han and Hangul names: the first syllable is the family name, the rest the given name ("Xi" "Jinping").
  const syllables = anyAscii(rawToken).match(/[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])/g) ?? [];
  if (syllables.length <= 2) return [syllables.join(' ')];
  return [syllables[0] ?? '', syllables.slice(1).join('')];
}

/**
 * Normalise a name for matching: NFKC, transliteration to Latin (any-ascii, which also strips diacritics), case
 * folding, punctuation, honorifics, and for organisations the legal-form words.
 */
export function normaliseName(raw: string, type: SanctionsEntityType = 'person'): NormalisedName {
  let text = raw.normalize('NFKC').replace(ARABIC_ARTICLE, '$1al ').replace(JOINERS, '');
  if (type !== 'person') text = text.replace(ABBREVIATION_DOT, '');
  const tokens: string[] = [];
  const abjad: boolean[] = [];
  // Titles lead a name or its part after a comma ("PETROV, General Ivan"); elsewhere "Sheikh" may be a surname.
  for (const segment of text.split(',')) {
    let leading = true;
    for (const rawToken of segment.split(SPLITTERS)) {
      if (rawToken === '') continue;
      const fromAbjad = ABJAD.test(rawToken);
      for (const part of transliterate(rawToken)) {
        for (const token of part.toLowerCase().split(/[^a-z0-9]+/)) {
          if (token === '' || (leading && HONORIFICS.has(token))) continue;
          leading = false;
          if (type !== 'person' && LEGAL_FORMS.has(token)) continue;
          tokens.push(fromAbjad ? token : canonical(token));
          abjad.push(fromAbjad);
        }
      }
    }
  }
  // Articles go only when something else is left, so a name made of them still has a token.
  const keep = tokens.map((token) => !PARTICLES.has(token));
  if (!keep.some(Boolean)) return { tokens, abjad };
  return { tokens: tokens.filter((_, i) => keep[i]), abjad: abjad.filter((_, i) => keep[i]) };
}
