import { describe, expect, it } from 'vitest';
import { LOCALES } from './embeds.rules.js';
import { MESSAGES } from './locales/index.js';

/** Every phrase of a locale file, by its path, as the page would show it (functions called with sample values). */
function phrases(tree: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else if (typeof value === 'function')
      out.set(path, String((value as (...args: unknown[]) => unknown)('A', 'B', 'C', 'D', 'E')));
    else for (const [p, v] of phrases(value as object, path)) out.set(p, v);
  }
  return out;
}

const english = phrases(MESSAGES.en);

describe('the embeds speak every language in full', () => {
  it.each(LOCALES.filter((l) => l !== 'en'))('%s has every phrase English has, and no other', (locale) => {
    const own = phrases(MESSAGES[locale]);
    expect([...own.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [path, text] of own) expect(text.trim(), `${locale} ${path}`).not.toBe('');
  });

  it.each(LOCALES.filter((l) => l !== 'en'))(
    '%s translates the limits, breaks and reality checks of every kind (none left in English)',
    (locale) => {
      const own = phrases(MESSAGES[locale]);
      const translated = [...own].filter(([path]) =>
        /^(limits\.kinds\.|limits\.title$|timeOut\.|realityCheck\.|errors\.chooseReminder$)/.test(path),
      );
      expect(translated.length).toBeGreaterThan(50);
      for (const [path, text] of translated) expect(text, `${locale} ${path}`).not.toBe(english.get(path));
    },
  );

  it('every phrase that takes a value shows it', () => {
    for (const locale of LOCALES) {
      const words = MESSAGES[locale];
      expect(words.limits.setNow('X1', 'X2', 'X3')).toMatch(/X1.*X2.*X3|X1.*X3.*X2/s);
      expect(words.limits.increaseWaits('X1', 'X2', 'X3', 'X4', 'X5')).toSatisfy((text: string) =>
        ['X1', 'X2', 'X3', 'X4', 'X5'].every((x) => text.includes(x)),
      );
      expect(words.limits.cancelled('X1', 'X2', 'X3')).toSatisfy((text: string) =>
        ['X1', 'X2', 'X3'].every((x) => text.includes(x)),
      );
      for (const phrase of [
        words.timeOut.confirmTitle('X1'),
        words.timeOut.confirmUntil('X1'),
        words.timeOut.confirmText('X1'),
        words.timeOut.confirmSubmit('X1'),
        words.timeOut.inForce('X1'),
        words.timeOut.started('X1'),
        words.timeOut.intro('X1'),
        words.realityCheck.current('X1'),
        words.realityCheck.operatorDefault('X1'),
        words.realityCheck.saved('X1'),
      ])
        expect(phrase, locale).toContain('X1');
      for (const phrase of [
        words.realityCheck.useDefault('X1', 'X2'),
        words.realityCheck.savedDefault('X1', 'X2'),
      ])
        expect(phrase, locale).toSatisfy((text: string) => text.includes('X1') && text.includes('X2'));
    }
  });
});
