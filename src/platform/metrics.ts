import cluster from 'node:cluster';
import { AggregatorRegistry, Counter, Gauge, Registry } from 'prom-client';

const REQUEST = 'compliance:metrics-request';
const REPLY = 'compliance:metrics-reply';
/** How long an API process waits for the supervisor's sum before it answers with its own counters. */
const CLUSTER_WAIT_MS = 3000;

interface MetricsReply {
  type: typeof REPLY;
  id: number;
  text?: string;
}

/**
 * The service's counters, in the Prometheus text format at GET /backoffice/v1/metrics (by prom-client). Under the
 * supervisor the processes' counters are summed (node:cluster messages through the supervisor), so one scrape of
 * the shared port sees what the worker process counted too. Names: `compliance_<what>_total` for counters,
 * `compliance_<what>` with its unit for gauges.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly counters = new Map<string, Counter>();

  constructor() {
    if (cluster.isWorker) {
      // Answers the supervisor's requests for this process's counters (prom-client's cluster protocol).
      AggregatorRegistry.setRegistries([this.registry]);
      new AggregatorRegistry();
    }
  }

  /** The counter of this name, created on first use; areas name theirs where they count. */
  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    let counter = this.counters.get(name);
    if (!counter) {
      counter = new Counter({ name, help, labelNames, registers: [this.registry] });
      this.counters.set(name, counter);
    }
    return counter;
  }

  /**
   * A gauge read at each scrape (a value from the database, the same in every process: under the supervisor the
   * processes' values are combined by their maximum, not summed).
   */
  gauge(name: string, help: string, read: () => Promise<number>): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      aggregator: 'max',
      async collect() {
        this.set(await read());
      },
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every process's counters summed under the supervisor; this process's alone otherwise, or if it does not answer. */
  async text(): Promise<string> {
    if (cluster.isWorker) {
      const summed = await askSupervisor();
      if (summed !== undefined) return summed;
    }
    return this.registry.metrics();
  }
}

let requests = 0;

function askSupervisor(): Promise<string | undefined> {
  const id = ++requests;
  return new Promise((resolve) => {
    const done = (text: string | undefined) => {
      clearTimeout(timer);
      process.off('message', onMessage);
      resolve(text);
    };
    const onMessage = (message: MetricsReply) => {
      if (message?.type === REPLY && message.id === id) done(message.text);
    };
    const timer = setTimeout(() => done(undefined), CLUSTER_WAIT_MS);
    process.on('message', onMessage);
    process.send!({ type: REQUEST, id });
  });
}

/** In the supervisor: sums the children's counters for whichever child is asked for them. */
export function sumMetricsForChildren(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (child, message: { type?: unknown; id?: number }) => {
    if (message?.type !== REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => child.send({ type: REPLY, id: message.id, text }),
      () => child.send({ type: REPLY, id: message.id }),
    );
  });
}
