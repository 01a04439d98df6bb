/**
 * `npx tsx scripts/data-doc.ts`: rewrites the lifecycle table of docs/data.md (between `<!-- lifecycle:start -->` and
 * `<!-- lifecycle:end -->`) from DATA_LIFECYCLE, so the page and the code say the same.
 */
import fs from 'node:fs';
import path from 'node:path';
import { lifecycleTable } from '../src/platform/data-lifecycle.js';

export const DATA_PAGE = path.join(import.meta.dirname, '..', 'docs', 'data.md');
const START = '<!-- lifecycle:start -->';
const END = '<!-- lifecycle:end -->';

export function withLifecycleTable(page: string): string {
  const before = page.slice(0, page.indexOf(START) + START.length);
  const after = page.slice(page.indexOf(END));
  return `${before}\n\n${lifecycleTable()}\n\n${after}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  fs.writeFileSync(DATA_PAGE, withLifecycleTable(fs.readFileSync(DATA_PAGE, 'utf8')));
}
