import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import type { Config } from '../../src/config.js';
import type { Environment, KeyRole } from '../../src/platform/db/platform-tables.js';
import { createLogger } from '../../src/platform/logger.js';
import { serveMetrics, type MetricsServer } from '../../src/platform/metrics-server.js';
import type { VendorOverrides } from '../../src/platform/vendors.js';
import { createService, type Service } from '../../src/service.js';
import type { StaffRole } from '../../src/staff/staff.rules.js';
import { asStaff, staffOf, type StaffTeam } from './staff-driver.js';
import { createTestDatabase } from './test-database.js';

export const BACKOFFICE_TOKEN = 'test-backoffice-token-0123456789abcdef';
/** Every test service's clock starts here, so no result depends on the date or the time of day the suite runs. */
export const TEST_CLOCK_START = new Date('2030-01-01T12:00:00Z');

export interface TestTenant {
  tenantId: string;
  apiKey: string;
  signingSecret: string;
  environment: Environment;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A whole service on a real database, driven through HTTP as a tenant or the staff would drive it. */
export class TestService {
  private stopped = false;
  /** Its staff, once a test asked for one (staff-driver.ts): the bootstrap admins and a member per role. */
  staffTeam: StaffTeam | undefined;
  private metricsServer: MetricsServer | undefined;

  private constructor(
    readonly service: Service,
    readonly config: Config,
    private readonly cleanup: () => Promise<void>,
  ) {}

  /**
   * Starts a service on a fresh database (PGlite in a temporary directory, or PostgreSQL with DATABASE_URL).
   * `vendors` replaces this service's vendor implementations (a stub resolver, a production matcher) and no other's;
   * `logTo` receives its log lines (set `logLevel` too: tests log nothing unless TEST_LOG_LEVEL says).
   */
  static async start(
    {
      vendors,
      logTo,
      ...overrides
    }: Partial<Config> & { vendors?: VendorOverrides; logTo?: DestinationStream } = {},
    reuse?: { dataDir: string; databaseUrl: string | undefined },
  ) {
    const database = reuse ? undefined : await createTestDatabase();
    const dataDir = reuse?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'compliance-test-'));
    const template = process.env.COMPLIANCE_TEST_PGLITE_TEMPLATE;
    if (!reuse && !database!.url && template)
      fs.cpSync(template, path.join(dataDir, 'pglite'), { recursive: true });
    const config: Config = {
      port: 0,
      host: '127.0.0.1',
      // Hundreds of test services run at once: none takes a metrics port unless its test asks (listenMetrics).
      metricsPort: undefined,
      databaseUrl: reuse ? reuse.databaseUrl : database!.url,
      dataDir,
      redisUrl: process.env.REDIS_URL || undefined,
      backofficeToken: BACKOFFICE_TOKEN,
      testClock: true,
      testClockStart: TEST_CLOCK_START,
      allowPrivateWebhooks: true,
      logLevel: (process.env.TEST_LOG_LEVEL as Config['logLevel']) ?? 'silent',
      logFormat: 'json',
      // A test's service closes at once: no load balancer to drain.
      shutdownDrainSeconds: 0,
      workers: false,
      apiProcesses: 1,
      processRole: 'all',
      geoipDbPath: undefined,
      sanctionsDataDir: undefined,
      sanctionsHitThreshold: 0.85,
      sanctionsMaxAgeDays: 7,
      sanctionsFetch: false,
      sanctionsSources: [],
      sanctionsFetchIntervalHours: 24,
      sanctionsFetchMaxDropPercent: 10,
      geoipFetch: undefined,
      geoipFetchIntervalHours: 24,
      geoipProbe: { ip: '8.8.8.8', country: 'US' },
      secretsKey: undefined,
      secretsOldKeys: [],
      secretsReencryptBatchSize: 100,
      // Every injected request comes from 127.0.0.1, and with REDIS_URL every test file counts in one Redis: tests
      // of the per-address limit set their own and send from an address of their own.
      authFailuresPerMinute: 1_000_000,
      securityLogRetentionDays: 90,
      reviewWarningHours: 4,
      firstAdminEmail: 'admin@localhost',
      trustProxy: false,
      sanctionsRescreenBatchSize: 500,
      sanctionsListScreenBatchSize: 2000,
      downloadTimeoutMs: 10_000,
      downloadMaxBytes: 512 * 1024 * 1024,
      // The name injected requests carry (light-my-request's Host): links come out as a test request would see them.
      publicUrl: 'http://localhost',
      staffSessionMaxHours: 12,
      smtpUrl: undefined,
      smtpFrom: 'Compliance service <no-reply@compliance.test>',
      ...overrides,
    };
    const service = await createService(config, createLogger(config, logTo), vendors);
    return new TestService(service, config, async () => {
      if (reuse) return;
      await database!.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
  }

  get platform() {
    return this.service.platform;
  }
  get db() {
    return this.service.platform.db;
  }

  /**
   * Listens on a free port of 127.0.0.1 for a browser or the CLI, and makes that address the PUBLIC_URL the links
   * are built from, as an operator sets it to where browsers reach the service. Returns it.
   */
  async listen(): Promise<string> {
    await this.service.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = this.service.app.server.address() as AddressInfo;
    this.config.publicUrl = `http://127.0.0.1:${port}`;
    return this.config.publicUrl;
  }

  inject(options: InjectOptions): Promise<LightMyRequestResponse> {
    return this.service.app.inject(options);
  }

  /**
   * A back-office call by a signed-in member of staff of this role (created and signed in on first use): case
   * decisions, four-eyes steps and staff accounts are a person's, never the token's.
   */
  async asStaff(role: StaffRole, method: Method, url: string, body?: object) {
    return asStaff(this, await staffOf(this, role), method, url, body);
  }

  backoffice(method: Method, url: string, body?: object) {
    return this.inject({
      method,
      url: `/backoffice/v1${url}`,
      headers: { authorization: `Bearer ${BACKOFFICE_TOKEN}` },
      payload: body,
    });
  }

  api(apiKey: string, method: Method, url: string, body?: object) {
    return this.inject({ method, url, headers: { authorization: `Bearer ${apiKey}` }, payload: body });
  }

  /** A fresh tenant through the back office, optionally with its webhook destination registered. */
  async createTenant(
    options: { environment?: Environment; webhookUrl?: string; name?: string } = {},
  ): Promise<TestTenant> {
    const environment = options.environment ?? 'sandbox';
    const response = await this.backoffice('POST', '/tenants', {
      name: options.name ?? 'Test Operator',
      environment,
    });
    if (response.statusCode !== 201) throw new Error(`tenant create failed: ${response.body}`);
    const body = response.json<{ tenant_id: string; api_key: string; signing_secret: string }>();
    if (options.webhookUrl) {
      const hook = await this.backoffice('PUT', `/tenants/${body.tenant_id}/webhook`, {
        url: options.webhookUrl,
      });
      if (hook.statusCode !== 200) throw new Error(`webhook registration failed: ${hook.body}`);
    }
    return {
      tenantId: body.tenant_id,
      apiKey: body.api_key,
      signingSecret: body.signing_secret,
      environment,
    };
  }

  async issueKey(tenantId: string, role: KeyRole): Promise<string> {
    const response = await this.backoffice('POST', `/tenants/${tenantId}/keys`, { role });
    return response.json<{ api_key: string }>().api_key;
  }

  async advance(seconds: number): Promise<string> {
    const response = await this.backoffice('POST', '/clock/advance', { seconds });
    if (response.statusCode !== 200) throw new Error(`clock advance failed: ${response.body}`);
    return response.json<{ now: string }>().now;
  }

  /** Runs one worker pass: due jobs, then every due webhook delivery. */
  deliverWebhooks(): Promise<void> {
    return this.service.workers.tick();
  }

  /**
   * Serves GET /metrics on a free port of 127.0.0.1, as a process on its own serves it on METRICS_PORT; returns its
   * address. Closed with the service.
   */
  async listenMetrics(): Promise<string> {
    const server = await serveMetrics(
      { metricsPort: 0, host: '127.0.0.1' },
      this.platform.log as Logger,
      () => this.platform.metrics.ownText(),
    );
    this.metricsServer = server;
    return `http://127.0.0.1:${server!.port}/metrics`;
  }

  /** Closes the service but keeps its database (for restart tests). */
  async stop(): Promise<{ dataDir: string; databaseUrl: string | undefined }> {
    this.stopped = true;
    await this.metricsServer?.close();
    await this.service.close();
    return { dataDir: this.config.dataDir, databaseUrl: this.config.databaseUrl };
  }

  async close(): Promise<void> {
    if (!this.stopped) {
      await this.metricsServer?.close();
      await this.service.close();
    }
    this.stopped = true;
    await this.cleanup();
  }
}
