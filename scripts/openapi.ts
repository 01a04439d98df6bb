import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { createService } from '../src/service.js';

/**
 * The tenant API's OpenAPI document, from the app itself: a service on a throwaway embedded database, built and
 * never listening, no workers. What the typed client's types are generated from (scripts/client-types.ts).
 */
export async function openApiDocument(): Promise<object> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'compliance-openapi-'));
  const config = loadConfig(
    { DATA_DIR: dataDir, LOG_LEVEL: 'silent', COMPLIANCE_WORKERS: 'false', PATH: process.env.PATH },
    false,
  );
  const service = await createService(config);
  try {
    await service.app.ready();
    return service.app.swagger();
  } finally {
    await service.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${JSON.stringify(await openApiDocument(), null, 2)}\n`);
}
