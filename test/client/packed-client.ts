import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Client from '@compliance-service/client';
import { temporaryDirectory } from '../helpers/temporary-directory.js';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** npm as a child of `npm test`: without the parent's npm_* settings (its workspace, its script), as an operator runs it. */
function npm(args: string[], cwd: string): string {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * The client as an operator gets it: `npm pack` of packages/client (its prepack builds it), installed from the
 * tarball into a fresh project of its own, and imported from there, where its own dependencies resolve. Once per
 * run: packing and installing take seconds. Its types are the workspace's (the same source); what runs is the
 * installed copy.
 */
export async function installPackedClient(): Promise<{
  client: typeof Client;
  files: string[];
  close(): void;
}> {
  const dir = temporaryDirectory('compliance-client-');
  const [packed] = JSON.parse(
    npm(
      ['pack', '--workspace', '@compliance-service/client', '--pack-destination', dir.path, '--json'],
      PROJECT_ROOT,
    ),
  ) as { filename: string; files: { path: string }[] }[];
  const project = path.join(dir.path, 'operator-backend');
  fs.mkdirSync(project);
  fs.writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'operator-backend', private: true, type: 'module' }),
  );
  npm(
    ['install', path.join(dir.path, packed!.filename), '--prefer-offline', '--no-audit', '--no-fund'],
    project,
  );
  const installed = path.join(project, 'node_modules/@compliance-service/client');
  const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')) as {
    exports: { '.': { import: string } };
  };
  const entry = pathToFileURL(path.join(installed, manifest.exports['.'].import)).href;
  return {
    client: (await import(entry)) as typeof Client,
    files: packed!.files.map((file) => file.path),
    close: dir.close,
  };
}
