import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the installed CLI as an operator would: `npx compliance …` from the project root.
 * `--no` makes npx fail rather than fetch an unrelated registry package should the local bin not resolve.
 */
export function compliance(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile('npx', ['--no', 'compliance', ...args], { cwd: PROJECT_ROOT, env }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
