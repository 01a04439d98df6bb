import { createTenant, listTenants } from './backoffice/tenants.service.js';
import { ConfigError, loadConfig } from './config.js';
import { createLogger, createService } from './service.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config);
  if (config.testClock) {
    logger.warn(
      '!!! COMPLIANCE_TEST_CLOCK=1: the service clock stands still and moves only by POST /backoffice/v1/clock/advance. Never enable this in production. !!!',
    );
  }
  if (config.allowPrivateWebhooks) {
    logger.warn(
      'Webhooks may be delivered to loopback and private addresses (COMPLIANCE_ALLOW_PRIVATE_WEBHOOKS): a local or test deployment only.',
    );
  }

  const service = await createService(config, logger);
  const { app, platform } = service;
  logger.info(
    { database: service.database.kind, data_dir: config.databaseUrl ? undefined : config.dataDir },
    'database ready',
  );

  const firstStart = (await listTenants(platform)).length === 0;
  let demo: Awaited<ReturnType<typeof createTenant>> | undefined;
  if (firstStart && service.generatedBackofficeToken) {
    demo = await createTenant(platform, { name: 'Demo Operator', environment: 'sandbox' }, null);
  }

  await app.listen({ port: config.port, host: config.host });
  if (config.workers) service.workers.start();
  const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${(app.server.address() as { port: number }).port}`;
  logger.info({ url: base }, 'compliance service listening');

  if (service.generatedBackofficeToken) {
    // Printed once, on the first start of an empty database; only hashes are kept.
    const lines = [
      '',
      'First start: these secrets are shown once and never again. Keep them now.',
      `  Back-office token:        ${service.generatedBackofficeToken}`,
    ];
    if (demo) {
      lines.push(
        `  Demo sandbox tenant:      ${demo.tenant.tenant_id} (${demo.tenant.name})`,
        `  Demo API key:             ${demo.apiKey}`,
        `  Demo webhook secret:      ${demo.tenant.signing_secret}`,
        '',
        'Try it:',
        `  curl -s ${base}/v1/health`,
        `  curl -s -H "Authorization: Bearer ${demo.apiKey}" "${base}/v1/exclusions/check?email=player@example.com"`,
      );
    }
    lines.push('');
    process.stdout.write(lines.join('\n') + '\n');
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new requests, finishing in-flight work');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, 20_000).unref();
    try {
      await service.close();
      clearTimeout(force);
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
