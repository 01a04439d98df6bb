import { describe, expect, it } from 'vitest';
import { normaliseName } from './normalise.js';
import { skeletonKey } from './phonetic.js';

const tokens = (name: string, type?: 'person' | 'entity') => normaliseName(name, type).tokens;

describe('name normalisation', () => {
  it('folds case, width (NFKC), diacritics and punctuation', () => {
    expect(tokens('MÜLLER-Lüdenscheidt, José')).toEqual(['muller', 'ludenscheidt', 'jose']);
    expect(tokens('ＳＭＩＴＨ　John')).toEqual(['smith', 'john']);
    expect(tokens("O'Brien, Seán")).toEqual(['obrien', 'sean']);
    expect(tokens('ŞAHİN Ayşe')).toEqual(['sahin', 'ayse']);
  });

  it('drops honorifics and ranks from every name', () => {
    expect(tokens('Dr. Ahmed HASSAN')).toEqual(['ahmed', 'hassan']);
    expect(tokens('Sheikh Haji Mullah Omar')).toEqual(['omar']);
    expect(tokens('PETROV, General Ivan')).toEqual(['petrov', 'ivan']);
  });

  it('keeps a title word that is part of the name rather than before it ("Sohail Sheikh")', () => {
    expect(tokens('Sohail Sheikh')).toEqual(['sohail', 'sheikh']);
  });

  it('drops legal forms from organisation names only', () => {
    expect(tokens('Rosneft Trading S.A.', 'entity')).toEqual(['rosneft', 'trading']);
    expect(tokens('OOO Stroygazmontazh', 'entity')).toEqual(['stroygazmontazh']);
    expect(tokens('Acme Holding Co., Ltd', 'entity')).toEqual(['acme', 'holding']);
    // A person's name keeps a token that happens to be a legal form.
    expect(tokens('Co Van Nguyen')).toEqual(['co', 'van', 'nguyen']);
  });

  it('drops Arabic articles written apart, but keeps a name made only of them', () => {
    expect(tokens('Abu Bakr al-Baghdadi')).toEqual(['abu', 'bakr', 'baghdadi']);
    expect(tokens('AL')).toEqual(['al']);
  });

  it('transliterates Cyrillic, Greek, Arabic, Hebrew and CJK to Latin', () => {
    expect(tokens('Владимир Путин')).toEqual(['vladimir', 'putin']);
    expect(tokens('Αλέξης Τσίπρας')).toEqual(['alexis', 'tsipras']);
    expect(tokens('محمد')).toEqual(['mhmd']);
    expect(normaliseName('محمد').abjad).toEqual([true]);
    expect(tokens('عبد الرحمن')).toEqual(['bd', 'rhmn']);
    expect(tokens('משה כהן')).toEqual(['msh', 'khhn']);
    expect(tokens('习近平')).toEqual(['xi', 'jinping']);
    expect(tokens('김정은')).toEqual(['gim', 'jeongeun']);
  });

  it('gives Arabic-script and Latin spellings of one name the same consonant skeleton', () => {
    expect(skeletonKey('mhmd')).toBe('mhmd');
    expect(skeletonKey('mohammed')).toBe('mhmd');
    expect(skeletonKey('muhammad')).toBe('mhmd');
    expect(skeletonKey('khhn')).toBe(skeletonKey('cohen'));
    expect(skeletonKey('hsyn')).toBe(skeletonKey('hussein'));
  });
});
