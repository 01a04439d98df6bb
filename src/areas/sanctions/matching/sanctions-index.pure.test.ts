import { describe, expect, it } from 'vitest';
import { buildSanctionsIndex } from './sanctions-index.js';
import { publication, type EntitySketch } from './entities.test-support.js';
import { DEFAULT_HIT_THRESHOLD, type ScreeningQuery } from './types.js';

const SKETCHES: EntitySketch[] = [
  {
    id: 'putin',
    names: ['PUTIN, Vladimir Vladimirovich', 'Путин Владимир Владимирович'],
    dob: ['1952-10-07'],
    nationalities: ['RU'],
  },
  { id: 'yasin', names: ['Abdul Rahman Yasin', 'عبد الرحمن ياسين'], dob: ['1960'] },
  { id: 'khalil', names: ['Muhammad Hassan Khalil', ['Abu Hassan', 'weak']] },
  { id: 'kim', names: ['KIM Jong Un', '김정은'] },
  { id: 'tsipras', names: ['Alexis Tsipras', 'Αλέξης Τσίπρας'] },
  { id: 'cohen', names: ['Moshe Cohen', 'משה כהן'] },
  { id: 'xi', names: ['Xi Jinping', '习近平'] },
  { id: 'dob', names: ['Ivan Sergeyevich Kuzmenko'], dob: ['1971-03-14'], nationalities: ['UA'] },
  { id: 'dob-year', names: ['Ivan Sergeyevich Kuzmenkov'], dob: ['1971'] },
  { id: 'gazprom', type: 'entity', names: ['Stroytransgaz OOO', 'STG Trading Co., Ltd.'] },
];
const index = buildSanctionsIndex([publication('un', SKETCHES)]);

const screen = (first_name: string, last_name: string, extra: Partial<ScreeningQuery> = {}) =>
  index.screen({ first_name, last_name, ...extra }, { include_borderline: true });
const hit = (first_name: string, last_name: string, extra: Partial<ScreeningQuery> = {}) =>
  screen(first_name, last_name, extra).matches.find((m) => m.band === 'hit');
const scoreOf = (id: string, first_name: string, last_name: string, extra: Partial<ScreeningQuery> = {}) =>
  screen(first_name, last_name, extra).matches.find((m) => m.list_entity_id === id)?.score ?? 0;

describe('sanctions name matching', () => {
  it('matches regardless of word order ("SURNAME, Given" and "Given SURNAME")', () => {
    expect(hit('Vladimir Vladimirovich', 'Putin')?.list_entity_id).toBe('putin');
    expect(hit('Putin', 'Vladimir Vladimirovich')?.list_entity_id).toBe('putin');
  });

  it('matches when the subject leaves out a middle name, scoring below the full name', () => {
    expect(hit('Vladimir', 'Putin')?.list_entity_id).toBe('putin');
    expect(scoreOf('putin', 'Vladimir', 'Putin')).toBeLessThan(
      scoreOf('putin', 'Vladimir Vladimirovich', 'Putin'),
    );
  });

  it('matches joined and split tokens ("Abdulrahman" and "Abdul Rahman")', () => {
    expect(hit('Abdulrahman', 'Yasin')?.list_entity_id).toBe('yasin');
    expect(hit('Abd al-Rahman', 'Yaseen')?.list_entity_id).toBe('yasin');
    expect(hit('Jin Ping', 'Xi')?.list_entity_id).toBe('xi');
  });

  it('tolerates one typo', () => {
    expect(hit('Vladimir', 'Puttin')?.list_entity_id).toBe('putin');
    expect(hit('Alexis', 'Tsirpas')?.list_entity_id).toBe('tsipras');
  });

  it('matches transliteration variants through phonetic keys and consonant skeletons', () => {
    expect(hit('Mohammed Hasan', 'Khalil')?.list_entity_id).toBe('khalil');
    expect(hit('Moshe', 'Kohen')?.list_entity_id).toBe('cohen');
  });

  it('finds the entity from a subject typed in Cyrillic, Arabic, Greek, Hebrew or CJK script', () => {
    expect(hit('Владимир', 'Путин')?.list_entity_id).toBe('putin');
    expect(hit('عبد الرحمن', 'ياسين')?.list_entity_id).toBe('yasin');
    expect(hit('Αλέξης', 'Τσίπρας')?.list_entity_id).toBe('tsipras');
    expect(hit('משה', 'כהן')?.list_entity_id).toBe('cohen');
    expect(hit('', '习近平')?.list_entity_id).toBe('xi');
    expect(hit('', '김정은')?.list_entity_id).toBe('kim');
  });

  it("matches a Latin subject against the list's own Arabic-script name", () => {
    const match = hit('Abdel Rahman', 'Yasseen');
    expect(match?.list_entity_id).toBe('yasin');
  });

  it('ignores honorifics in the subject', () => {
    expect(scoreOf('tsipras', 'Dr. Alexis', 'Tsipras')).toBe(1);
  });

  it('screens persons by default, organisations (legal forms ignored) on request', () => {
    expect(screen('Stroytransgaz', '').matches).toEqual([]);
    const organisation = index.screen(
      { first_name: 'Stroytransgaz', last_name: 'LLC' },
      { types: ['entity'] },
    );
    expect(organisation.matches[0]?.list_entity_id).toBe('gazprom');
  });

  it('does not match ordinary unrelated names', () => {
    expect(screen('John', 'Smith').matches).toEqual([]);
    expect(screen('Maria', 'Garcia').matches).toEqual([]);
  });

  it('carries the evidence for the case view', () => {
    const match = hit('Vladimir', 'Putin', { date_of_birth: '1952-10-07', nationality: 'RU' });
    expect(match).toMatchObject({
      list: 'un',
      list_entity_id: 'putin',
      primary_name: 'PUTIN, Vladimir Vladimirovich',
      band: 'hit',
      programmes: ['TEST'],
      evidence: {
        matched_name_quality: 'primary',
        date_of_birth: 'exact',
        nationality: 'match',
        weak_alias_capped: false,
      },
    });
    expect(match?.score).toBeGreaterThan(match?.evidence.name_score ?? 1);
    expect(index.list_versions).toEqual({ un: '2026-01-15' });
  });
});

describe('an index remembering its token look-ups', () => {
  const QUERIES: ScreeningQuery[] = [
    { first_name: 'Vladimir', last_name: 'Putin' },
    { first_name: 'Vladimir Vladimirovich', last_name: 'Putin', date_of_birth: '1952-10-07' },
    { first_name: 'Abdul', last_name: 'Rahman Yasin' },
    { first_name: 'Abdulrahman', last_name: 'Yasin' },
    { first_name: 'Ivan Kuzmen', last_name: 'kov' },
    { first_name: 'Ivan', last_name: 'Kuzmenkov' },
    { first_name: 'Ivan', last_name: 'Kuzmenko', date_of_birth: '1971-03-14', nationality: 'UA' },
    { first_name: 'Ivan', last_name: 'Kuzmenkov', date_of_birth: '1980-01-01' },
    { first_name: 'Hassan', last_name: 'Hassan' },
    { first_name: 'Vladimir', last_name: 'Khalil' },
    { first_name: 'Muhammad', last_name: 'Putin' },
    { first_name: 'Ivan', last_name: 'Yasin' },
    { first_name: 'John', last_name: 'Smith' },
  ];

  it('screens every query as the index that looks each token up afresh does, however often a token repeats', () => {
    const remembering = buildSanctionsIndex([publication('un', SKETCHES)], { rememberTokens: 3 });
    const options = { include_borderline: true };
    for (let round = 0; round < 3; round++) {
      for (const query of QUERIES)
        expect(remembering.screen(query, options)).toEqual(index.screen(query, options));
    }
  });
});

describe('date of birth and nationality', () => {
  const name = ['Ivan', 'Kuzmenko'] as const;
  const nameOnly = scoreOf('dob', ...name);

  it('an exact date of birth raises the score', () => {
    expect(scoreOf('dob', ...name, { date_of_birth: '1971-03-14' })).toBeGreaterThan(nameOnly);
  });

  it('a year-only listed date of birth is weaker evidence than an exact one', () => {
    const exact = scoreOf('dob', ...name, { date_of_birth: '1971-03-14' }) - nameOnly;
    const yearOnly =
      scoreOf('dob-year', 'Ivan', 'Kuzmenkov', { date_of_birth: '1971-03-14' }) -
      scoreOf('dob-year', 'Ivan', 'Kuzmenkov');
    expect(yearOnly).toBeGreaterThan(0);
    expect(yearOnly).toBeLessThan(exact);
  });

  it('a conflicting date of birth lowers the score, never raises it', () => {
    const conflicting = scoreOf('dob', ...name, { date_of_birth: '1990-06-01' });
    expect(conflicting).toBeLessThan(nameOnly);
    expect(hit(...name, { date_of_birth: '1990-06-01' })).toBeUndefined();
    expect(scoreOf('dob', ...name, { date_of_birth: '1972-03-14' })).toBeLessThan(nameOnly);
  });

  it('a nationality corroborates or weakens', () => {
    expect(scoreOf('dob', ...name, { nationality: 'UA' })).toBeGreaterThan(nameOnly);
    expect(scoreOf('dob', ...name, { nationality: 'FR' })).toBeLessThan(nameOnly);
  });
});

describe('weak aliases', () => {
  it('never score a hit on their own: held inside the borderline band', () => {
    const match = screen('Abu', 'Hassan').matches.find((m) => m.list_entity_id === 'khalil');
    expect(match?.evidence.matched_name).toBe('Abu Hassan');
    expect(match?.band).toBe('borderline');
    expect(match?.evidence.weak_alias_capped).toBe(true);
    expect(match?.score).toBeLessThan(DEFAULT_HIT_THRESHOLD);
    expect(match?.score).toBeGreaterThanOrEqual(DEFAULT_HIT_THRESHOLD - 0.1);
    expect(index.screen({ first_name: 'Abu', last_name: 'Hassan' }).matches).toEqual([]);
  });

  it('stay below the threshold that is configured, not only the default', () => {
    const match = index.screen(
      { first_name: 'Abu', last_name: 'Hassan' },
      { threshold: 0.7, include_borderline: true },
    ).matches[0];
    expect(match?.score).toBeLessThan(0.7);
  });
});
