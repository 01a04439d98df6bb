import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What one route answers: a status, headers and a body, or nothing at all (a server that hangs). */
export type Served = { status?: number; headers?: Record<string, string>; body?: Buffer | string } | 'hang';

/**
 * A publisher's download server on 127.0.0.1, for the fetchers' tests: each path answers what the test set,
 * given the request's headers (so a test can answer 304 to a matching If-None-Match).
 */
export class FileServer {
  readonly requests: Array<{ path: string; headers: http.IncomingHttpHeaders }> = [];
  private readonly routes = new Map<string, (headers: http.IncomingHttpHeaders) => Served>();
  private readonly hanging = new Set<http.ServerResponse>();

  private constructor(
    private readonly server: http.Server,
    readonly base: string,
  ) {}

  static async start(): Promise<FileServer> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const files = new FileServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req, res) => files.answer(req, res));
    return files;
  }

  serve(path: string, answer: Served | ((headers: http.IncomingHttpHeaders) => Served)): void {
    this.routes.set(path, typeof answer === 'function' ? answer : () => answer);
  }

  countFor(path: string): number {
    return this.requests.filter((request) => request.path === path).length;
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse) {
    const path = req.url ?? '/';
    this.requests.push({ path, headers: req.headers });
    const served = this.routes.get(path)?.(req.headers) ?? { status: 404, body: 'not found' };
    if (served === 'hang') {
      this.hanging.add(res);
      return;
    }
    res.writeHead(served.status ?? 200, served.headers);
    res.end(served.body);
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
