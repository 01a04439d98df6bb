import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's folder, found by walking up from this file (it runs from src/ in tests and dist/src/ built). */
function findPackage(): { root: string; version: string } {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      const pkg = JSON.parse(fs.readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'compliance-service') return { root: dir, version: pkg.version ?? '0.0.0' };
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('compliance-service: package.json not found above the running code');
    dir = parent;
  }
}

const found = findPackage();
export const VERSION = found.version;
export const PACKAGE_ROOT = found.root;
