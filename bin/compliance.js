#!/usr/bin/env node
import { existsSync } from 'node:fs';

// The CLI is TypeScript compiled into dist/; this launcher only finds it.
const main = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  console.error('compliance: dist/src/cli/main.js not found; run npm run build first');
  process.exit(1);
}
await import(main.href);
