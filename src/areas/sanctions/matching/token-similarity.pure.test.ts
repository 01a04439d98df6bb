import { describe, expect, it } from 'vitest';
import { scoreNameTokens } from './name-score.js';
import { normaliseName } from './normalise.js';
import { tokenInfo, tokenSimilarity, type TokenInfo } from './token-similarity.js';

const info = (name: string): TokenInfo[] => {
  const { tokens, abjad } = normaliseName(name);
  return tokens.map((token, i) => tokenInfo(token, abjad[i] ?? false));
};
const similarity = (a: string, b: string) => tokenSimilarity(info(a)[0]!, info(b)[0]!);
const nameScore = (subject: string, listed: string) => {
  const [query, name] = [info(subject), info(listed)];
  return scoreNameTokens(query, name, (i, j) => tokenSimilarity(query[i]!, name[j]!));
};

describe('token similarity', () => {
  it('meets romanisations of one name through the folded spelling', () => {
    for (const [a, b] of [
      ['Yuliya', 'Iuliia'],
      ['Yuliya', 'Julija'],
      ['Yuriy', 'Iuryi'],
      ['Mukhammad', 'Muhammad'],
      ['Saeedi', 'Saidi'],
    ]) {
      expect(similarity(a!, b!), `${a} / ${b}`).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('takes shared consonants for a transliteration only with the same vowel shape and a related first letter', () => {
    expect(similarity('Muhammad', 'Mohamed')).toBe(0.9);
    expect(similarity('Hussein', 'Husayn')).toBeGreaterThanOrEqual(0.9);
    for (const [a, b] of [
      ['Mahmoud', 'Mohamed'],
      ['Hussain', 'Hasan'],
      ['Ahmed', 'Hamad'],
      ['Hesham', 'Husam'],
      ['Azzam', 'Essam'],
      ['Acar', 'Achour'],
    ]) {
      expect(similarity(a!, b!), `${a} / ${b}`).toBe(0);
    }
  });

  it('compares a shortened prefix as it is written, so a slip in it is one slip', () => {
    expect(similarity('Abdlu', 'Abdul')).toBeGreaterThanOrEqual(0.9);
    expect(similarity('Adbullah', 'Abdullah')).toBeGreaterThanOrEqual(0.9);
    expect(similarity('Aboulaye', 'Abdoulaye')).toBeGreaterThanOrEqual(0.9);
  });

  it('meets a name with an Arabic article written onto it', () => {
    expect(similarity('Alzaidi', 'Zaidi')).toBeGreaterThanOrEqual(0.9);
  });

  it('does not take a loose resemblance of names with unrelated first letters for a match', () => {
    expect(similarity('Taraneh', 'Farzaneh')).toBe(0);
    expect(similarity('Atef', 'Tef')).toBeGreaterThan(0.8); // one slip: a dropped first letter
  });
});

describe('name score', () => {
  it('holds two independent slips below a hit, but not one', () => {
    expect(nameScore('Sarah Green', 'Egreen Salah')).toBeLessThan(0.85);
    expect(nameScore('Sarah Grean', 'Sarah Green')).toBeGreaterThan(0.9);
  });

  it('scores two romanisation differences as one name', () => {
    expect(nameScore('Muhammad Husayn', 'Mohamed Hussein')).toBeGreaterThanOrEqual(0.9);
    expect(nameScore('Iuliia Viktorovna', 'Yuliya Viktorovna')).toBeGreaterThanOrEqual(0.93);
  });

  it('weighs a title inside the subject half, and not as a name part of its own', () => {
    expect(nameScore('Bando Hadji', 'BANDO, Haji')).toBeGreaterThan(0.9);
  });

  it('costs an extra name part 0.15', () => {
    expect(nameScore('Ivan Petrovich Smirnov', 'Ivan Smirnov')).toBeCloseTo(0.85, 5);
  });
});
