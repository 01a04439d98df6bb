import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { METRICS_CONTENT_TYPE } from './metrics.js';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * GET /metrics on a port of its own (METRICS_PORT): what Prometheus scrapes, apart from the API's port and its
 * keys, so that a scrape never draws on a tenant's budget and the port can be kept off the public network. Served
 * by the supervisor (every child's metrics aggregated) or by a process on its own.
 */
export async function listenMetrics(options: {
  port: number;
  host: string;
  text: () => Promise<string>;
  log: Logger;
}): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    const path = request.url?.split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('Not found: GET /metrics\n');
      return;
    }
    options.text().then(
      (text) => response.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(text),
      (error: unknown) => {
        options.log.error({ err: error }, 'metrics scrape failed');
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics unavailable\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A scraper's idle keep-alive connection must not hold a stopping process open.
  server.keepAliveTimeout = 5_000;
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** GET /metrics on METRICS_PORT, unless it is off; logs its address. */
export async function serveMetrics(
  config: Pick<Config, 'metricsPort' | 'host'>,
  log: Logger,
  text: () => Promise<string>,
): Promise<MetricsServer | undefined> {
  if (config.metricsPort === undefined) return undefined;
  const server = await listenMetrics({ port: config.metricsPort, host: config.host, text, log });
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  log.info({ url: `http://${host}:${server.port}/metrics` }, 'metrics listening');
  return server;
}
