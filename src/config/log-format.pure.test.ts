import { describe, expect, it } from 'vitest';
import { chooseLogFormat } from './log-format.js';

describe('the log format', () => {
  it.each([
    { raw: undefined, terminal: true, format: 'pretty' },
    { raw: '', terminal: true, format: 'pretty' },
    { raw: undefined, terminal: false, format: 'json' },
    { raw: 'json', terminal: true, format: 'json' },
    { raw: 'pretty', terminal: false, format: 'pretty' },
  ] as const)('LOG_FORMAT=$raw with a terminal $terminal writes $format', ({ raw, terminal, format }) => {
    const problems: string[] = [];
    expect(chooseLogFormat(raw, terminal, problems)).toBe(format);
    expect(problems).toEqual([]);
  });

  it('refuses any other value, naming it', () => {
    const problems: string[] = [];
    chooseLogFormat('text', true, problems);
    expect(problems).toEqual(['LOG_FORMAT must be json or pretty (got "text")']);
  });
});
