import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A new empty directory under the system's temporary directory; close() removes it with all it holds. */
export function temporaryDirectory(prefix: string): { path: string; close(): void } {
  const created = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { path: created, close: () => fs.rmSync(created, { recursive: true, force: true }) };
}
