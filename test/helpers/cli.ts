import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { BACKOFFICE_TOKEN, type TestService } from './test-service.js';

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

/** The CLI pointed at one test service as a member of staff: `cli('tenant', 'list')`; `cli.env` is what it runs with. */
export type Cli = ((...args: string[]) => Promise<CliResult>) & { env: Record<string, string | undefined> };

/** Puts a test service on a port of 127.0.0.1 (the CLI speaks HTTP) and returns the CLI pointed at it. */
export async function cliFor(t: TestService): Promise<Cli> {
  await t.service.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.service.app.server.address() as AddressInfo;
  const env = {
    ...process.env,
    COMPLIANCE_URL: `http://127.0.0.1:${port}`,
    COMPLIANCE_BACKOFFICE_TOKEN: BACKOFFICE_TOKEN,
  };
  return Object.assign((...args: string[]) => compliance(args, env), { env });
}
