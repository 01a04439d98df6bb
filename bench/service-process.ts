import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { request } from 'undici';

/** The service as operators run it: `node dist/src/main.js`, a separate process with its own event loop. */
export class ServiceProcess {
  private constructor(
    readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {}

  /** `gcLog`: the processes' --trace-gc lines are appended there, each after the wall time (epoch ms) it was read. */
  static async start(
    env: Record<string, string | undefined>,
    nodeArgs: string[] = [],
    gcLog?: string,
  ): Promise<ServiceProcess> {
    const child = spawn(process.execPath, [...nodeArgs, 'dist/src/main.js'], {
      // PUBLIC_URL is required with DATABASE_URL; the benchmark follows no link the service builds.
      // METRICS_PORT 0: metrics on, as in production, on a free port.
      env: {
        ...process.env,
        PORT: '0',
        METRICS_PORT: '0',
        HOST: '127.0.0.1',
        PUBLIC_URL: 'http://127.0.0.1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const baseUrl = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /"url":"(http:\/\/[^"]+)","msg":"compliance service listening"/.exec(output);
        if (match) resolve(match[1]!);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) =>
        reject(new Error(`service exited with ${code} before listening:\n${output}`)),
      );
    });
    // Keep draining its output so a full pipe never blocks the service; warnings and errors are echoed.
    child.stdout!.removeAllListeners('data');
    // --trace-gc lines, and each process's 'database ready' line (its pid and role), for bench/timeline.ts.
    const logGc = (lines: string[]) => {
      if (!gcLog) return;
      const at = Date.now();
      const kept = lines.filter((line) => line.startsWith('[') || line.includes('"msg":"database ready"'));
      if (kept.length > 0) fs.appendFileSync(gcLog, kept.map((line) => `${at} ${line}\n`).join(''));
    };
    logGc(output.split('\n'));
    child.stdout!.on('data', (chunk: Buffer) => {
      const lines = chunk.toString().split('\n');
      for (const line of lines) if (/"level":(4|5|6)0/.test(line)) console.error(`  [service] ${line}`);
      logGc(lines);
    });
    return new ServiceProcess(child, baseUrl);
  }

  get pid(): number {
    return this.child.pid!;
  }

  async backoffice(token: string, method: 'POST' | 'PUT' | 'GET', path: string, body?: object) {
    const response = await request(`${this.baseUrl}/backoffice/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await response.body.json()) as Record<string, unknown>;
    if (response.statusCode >= 300)
      throw new Error(`${method} ${path}: ${response.statusCode} ${JSON.stringify(json)}`);
    return json;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}
