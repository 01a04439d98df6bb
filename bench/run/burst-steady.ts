/**
 * The "burst, then steady" phase (ADR 0019): a closed-loop burst of AML events builds a backlog of evaluation, then
 * events and exclusion checks arrive together, each at 60% of its own closed-loop capacity, while the worker catches
 * up. Measures the acknowledgement and check p99 of the steady part and the oldest waiting event's age throughout.
 */
import pg from 'pg';
import type { BenchContext } from '../scenarios.js';
import { evaluationDrained, queueState } from './database-checks.js';
import { LoadGenerator, type MeasuredServer } from './load-generator.js';
import { closedSeconds, log, quick, steadyShare, token } from './options.js';
import type { Check, Reported } from './report.js';
import { expectedStatuses } from './targets.js';

/** The share of each path's own closed-loop capacity offered in the steady part (`--steady-share=` to vary it). */
export const STEADY_SHARE = steadyShare ?? 0.6;
export const BURST_STEADY = {
  burstSeconds: quick ? 5 : 30,
  steadySeconds: quick ? 10 : 60,
  /** The figures: acknowledgement and check p99 (ms) by database, and the evaluation deadline (s). */
  ackP99: { postgres: 25, pglite: 50 },
  checkP99: { postgres: 15, pglite: undefined },
  deadlineSeconds: 300,
};

/**
 * Samples the oldest waiting event's age every second until stopped: on PostgreSQL from the queue itself, on PGlite
 * (one process holds the database) from the service's compliance_aml_evaluation_oldest_seconds.
 */
class OldestWaiting {
  private readonly ages: number[] = [];
  private stopped = false;
  private readonly sampling: Promise<void>;

  constructor(
    private readonly service: MeasuredServer,
    private readonly databaseUrl: string | undefined,
  ) {
    this.sampling = this.sample();
  }

  private async sample(): Promise<void> {
    const client = this.databaseUrl ? new pg.Client({ connectionString: this.databaseUrl }) : undefined;
    await client?.connect();
    try {
      while (!this.stopped) {
        const age = client ? (await queueState(client)).ageSeconds : await this.fromMetrics();
        if (age !== undefined) this.ages.push(age);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    } finally {
      await client?.end();
    }
  }

  private async fromMetrics(): Promise<number | undefined> {
    const response = await fetch(`${this.service.baseUrl}/backoffice/v1/metrics`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const line = (await response.text())
      .split('\n')
      .find((l) => l.startsWith('compliance_aml_evaluation_oldest_seconds '));
    return line ? Number(line.split(' ')[1]) : undefined;
  }

  /** The largest age seen, or null when none could be read. */
  async stop(): Promise<number | null> {
    this.stopped = true;
    await this.sampling;
    return this.ages.length ? Math.round(Math.max(...this.ages) * 10) / 10 : null;
  }
}

export async function measureBurstThenSteady(
  service: MeasuredServer,
  databaseUrl: string | undefined,
  context: BenchContext,
  kind: 'postgres' | 'pglite',
): Promise<{ phases: Reported[]; checks: Check[] }> {
  const event = { scenario: 'aml_event', context, expectStatus: expectedStatuses('aml_event') } as const;
  const check = {
    scenario: 'exclusions_check',
    context,
    expectStatus: expectedStatuses('exclusions_check'),
  } as const;
  const events = new LoadGenerator();
  const checks = new LoadGenerator();
  try {
    // Each path's own capacity, measured alone with the evaluation queue empty.
    if (databaseUrl) await evaluationDrained(databaseUrl);
    const capacity = async (generator: LoadGenerator, spec: typeof event | typeof check) =>
      (
        await generator.run({
          ...spec,
          baseUrl: service.baseUrl,
          mode: 'closed',
          durationSeconds: closedSeconds,
          connections: 32,
          seed: 41,
        })
      ).throughput;
    const checkCapacity = await capacity(checks, check);
    if (databaseUrl) await evaluationDrained(databaseUrl);
    const eventCapacity = await capacity(events, event);
    if (databaseUrl) await evaluationDrained(databaseUrl);
    const eventRate = Math.round(eventCapacity * STEADY_SHARE);
    const checkRate = Math.round(checkCapacity * STEADY_SHARE);
    log(
      `== burst, then steady on ${kind}: events closed loop for ${BURST_STEADY.burstSeconds} s, then events at ` +
        `${eventRate}/s and exclusion checks at ${checkRate}/s (${STEADY_SHARE * 100}% of ${Math.round(eventCapacity)} and ` +
        `${Math.round(checkCapacity)}) for ${BURST_STEADY.steadySeconds} s`,
    );
    const oldest = new OldestWaiting(service, databaseUrl);
    const burst = await events.measure(service, {
      ...event,
      mode: 'closed',
      durationSeconds: BURST_STEADY.burstSeconds,
      connections: 32,
      seed: 43,
    });
    const [eventsSteady, checksSteady] = await Promise.all([
      events.measure(service, {
        ...event,
        mode: 'open',
        rate: eventRate,
        durationSeconds: BURST_STEADY.steadySeconds,
        connections: 64,
        seed: 47,
      }),
      checks.measure(service, {
        ...check,
        mode: 'open',
        rate: checkRate,
        durationSeconds: BURST_STEADY.steadySeconds,
        connections: 64,
        seed: 53,
      }),
    ]);
    const oldestSeconds = await oldest.stop();

    const verdict = (p99: number, target: number | undefined, errors: number) =>
      target === undefined
        ? errors > 0
          ? `FAIL: ${errors} errors`
          : 'reported'
        : p99 <= target && errors === 0
          ? `ok (p99 <= ${target} ms)`
          : `FAIL: p99 ${p99} > ${target} ms or ${errors} errors`;
    const name = (path: string) => `burst, then steady: ${path}`;
    return {
      phases: [
        {
          name: name('POST /v1/aml/event (burst)'),
          mode: 'closed',
          database: kind,
          rate: null,
          ...burst,
          verdict: `${burst.result.completed} events acknowledged`,
        },
        {
          name: name('POST /v1/aml/event'),
          mode: 'open',
          database: kind,
          rate: eventRate,
          ...eventsSteady,
          verdict: verdict(
            eventsSteady.result.latency.p99,
            BURST_STEADY.ackP99[kind],
            eventsSteady.result.errors,
          ),
        },
        {
          name: name('GET /v1/exclusions/check'),
          mode: 'open',
          database: kind,
          rate: checkRate,
          ...checksSteady,
          verdict: verdict(
            checksSteady.result.latency.p99,
            BURST_STEADY.checkP99[kind],
            checksSteady.result.errors,
          ),
        },
      ],
      checks: [
        {
          what: `burst, then steady (${kind}): oldest waiting event under the ${BURST_STEADY.deadlineSeconds} s deadline`,
          ok: oldestSeconds !== null && oldestSeconds < BURST_STEADY.deadlineSeconds,
          detail: JSON.stringify({
            oldest_seconds: oldestSeconds,
            steady_share: STEADY_SHARE,
            event_capacity: Math.round(eventCapacity),
            check_capacity: Math.round(checkCapacity),
          }),
        },
      ],
    };
  } finally {
    events.close();
    checks.close();
  }
}
