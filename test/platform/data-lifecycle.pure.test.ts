import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DATA_LIFECYCLE, lifecycleTable } from '../../src/platform/data-lifecycle.js';
import { DATA_PAGE, withLifecycleTable } from '../../scripts/data-doc.js';

/** A Markdown table's cells, whatever the padding prettier gives it. */
const cells = (markdown: string) =>
  markdown
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/^-+$/, '---')),
    );

describe('docs/data.md', () => {
  it('shows the lifecycle table of the code (npx tsx scripts/data-doc.ts rewrites it)', () => {
    const page = fs.readFileSync(DATA_PAGE, 'utf8');
    const section = (text: string) =>
      text.slice(text.indexOf('<!-- lifecycle:start -->'), text.indexOf('<!-- lifecycle:end -->'));
    expect(cells(section(page))).toEqual(cells(section(withLifecycleTable(page))));
    expect(cells(lifecycleTable())).toHaveLength(Object.keys(DATA_LIFECYCLE).length + 2);
  });

  it('keeps what the law fixes at least as long as it says', () => {
    for (const [table, t] of Object.entries(DATA_LIFECYCLE)) {
      const years = typeof t.keep === 'object' && 'years' in t.keep ? t.keep.years : 0;
      if (t.basis === 'mlr') expect(years, table).toBeGreaterThanOrEqual(5);
      if (t.basis === 'spec_geo') expect(years, table).toBeGreaterThanOrEqual(7);
      if (t.basis === 'spec_reports' || t.basis === 'limitation' || t.basis === 'exclusion')
        expect(years, table).toBeGreaterThanOrEqual(6);
    }
  });
});
