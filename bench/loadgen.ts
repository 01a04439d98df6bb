/**
 * The load generator, run in its own process so that it never shares an event loop with the service.
 *
 * Open loop: request i is due at start + i / rate whatever happened before it, and its latency runs from that
 * scheduled time, so time spent queueing (in the client or the server) is counted, never hidden. Closed loop:
 * a fixed number of connections each send their next request as soon as the previous one answers, for the
 * highest throughput the server sustains.
 */
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Pool } from 'undici';
import { round, summarise, type LatencySummary } from './lib/stats.js';
import { requestFactory, type BenchContext, type ScenarioName } from './scenarios.js';

export interface LoadSpec {
  baseUrl: string;
  scenario: ScenarioName;
  context: BenchContext;
  mode: 'open' | 'closed';
  /** Requests per second (open loop). */
  rate?: number;
  durationSeconds: number;
  connections: number;
  seed: number;
  /** Status codes that count as success. */
  expectStatus: readonly number[];
  /** `--timeline`: each request's scheduled send time (epoch ms) and latency are written to this file. */
  timelineFile?: string;
}

export interface LoadResult {
  scenario: ScenarioName;
  mode: 'open' | 'closed';
  offeredRate: number | null;
  sent: number;
  completed: number;
  errors: number;
  statuses: Record<string, number>;
  throughput: number;
  latency: LatencySummary;
  firstError?: string;
  /** AML events: the transaction ids the service acknowledged (202), to be found in the database afterwards. */
  acknowledged?: string[];
  /**
   * The generator's own event-loop delay (p99, ms) during the phase: when it is high, the generator, not the
   * server, added the latency.
   */
  generatorLagP99: number;
}

const LAG_RESOLUTION_MS = 2;

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const pool = new Pool(spec.baseUrl, {
    connections: spec.connections,
    pipelining: 1,
    keepAliveTimeout: 30_000,
  });
  const next = requestFactory(spec.scenario, spec.context, spec.seed);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let sent = 0;
  let firstError: string | undefined;
  const acknowledged: string[] = [];
  const timeline: string[] = [];
  const lag = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
  lag.enable();

  const send = async (i: number, scheduledAt: number) => {
    const request = next(i);
    sent++;
    try {
      const response = await pool.request({
        method: request.method,
        path: request.path,
        headers: request.headers,
        body: request.body,
      });
      const text = await response.body.text();
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
      if (!spec.expectStatus.includes(response.statusCode)) {
        errors++;
        firstError ??= `${response.statusCode} ${text.slice(0, 200)}`;
      } else if (spec.scenario === 'aml_event' && response.statusCode === 202) {
        acknowledged.push((JSON.parse(text) as { transaction_id: string }).transaction_id);
      }
    } catch (error) {
      errors++;
      statuses.network = (statuses.network ?? 0) + 1;
      firstError ??= String(error);
    }
    const latency = performance.now() - scheduledAt;
    latencies.push(latency);
    if (spec.timelineFile)
      timeline.push(`${(performance.timeOrigin + scheduledAt).toFixed(1)} ${latency.toFixed(2)}`);
  };

  const started = performance.now();
  if (spec.mode === 'open') {
    const rate = spec.rate!;
    const total = Math.round(rate * spec.durationSeconds);
    const interval = 1000 / rate;
    const pending: Promise<void>[] = [];
    let i = 0;
    await new Promise<void>((resolve) => {
      const pump = () => {
        const now = performance.now();
        while (i < total && started + i * interval <= now) {
          pending.push(send(i, started + i * interval));
          i++;
        }
        if (i < total) setTimeout(pump, 1);
        else resolve();
      };
      pump();
    });
    await Promise.all(pending);
  } else {
    const until = started + spec.durationSeconds * 1000;
    let i = 0;
    await Promise.all(
      Array.from({ length: spec.connections }, async () => {
        while (performance.now() < until) {
          const index = i++;
          await send(index, performance.now());
        }
      }),
    );
  }
  const elapsed = (performance.now() - started) / 1000;
  lag.disable();
  await pool.close();
  if (spec.timelineFile) fs.writeFileSync(spec.timelineFile, timeline.join('\n') + '\n');
  return {
    scenario: spec.scenario,
    mode: spec.mode,
    offeredRate: spec.mode === 'open' ? spec.rate! : null,
    sent,
    completed: latencies.length,
    errors,
    statuses,
    throughput: Math.round(latencies.length / elapsed),
    latency: summarise(latencies),
    firstError,
    acknowledged: spec.scenario === 'aml_event' ? acknowledged : undefined,
    // The histogram counts the sampling interval too; only the delay beyond it is the generator's.
    generatorLagP99: round(Math.max(0, lag.percentile(99) / 1e6 - LAG_RESOLUTION_MS)),
  };
}

// Run as a child process: each LoadSpec in on IPC is answered with its LoadResult. One process serves a path's
// phases in turn, so the unmeasured warm-up compiles the generator's own code as well as the server's.
if (process.send) {
  process.on('message', (spec: LoadSpec) => {
    runLoad(spec).then(
      (result) => process.send!(result),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
  process.on('disconnect', () => process.exit(0));
}
