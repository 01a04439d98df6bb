import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Global setup of the "process" project: its tests start the compiled service and CLI (dist/) as operators do, so
 * dist/ is built once before them, incrementally (`npm run build`'s compile, without npm's start-up).
 */
export default function setup(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
}
