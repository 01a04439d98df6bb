import cluster from 'node:cluster';
import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type Aggregator,
} from 'prom-client';

const REQUEST = 'compliance:metrics-request';
const REPLY = 'compliance:metrics-reply';
/** How long an API process waits for the supervisor's sum before it answers with its own counters. */
const CLUSTER_WAIT_MS = 3000;

interface MetricsReply {
  type: typeof REPLY;
  id: number;
  text?: string;
}

/** One series of a labelled gauge: its label values and its value. */
export interface GaugeSeries {
  labels: Record<string, string>;
  value: number;
}

export interface GaugeOptions {
  labelNames?: readonly string[];
  /**
   * How the supervisor combines the processes' values: `max` (the default) for a value read from the database, the
   * same in every process; `sum` for what each process holds (its pool's connections).
   */
  aggregator?: Aggregator;
}

type GaugeRead = () => Promise<number | readonly GaugeSeries[]> | number | readonly GaugeSeries[];

/**
 * The process's own metrics (prom-client's default collectors: CPU, memory, event loop, garbage collection), in a
 * registry of their own: they describe the process, not a service, and are collected once however many services a
 * process builds (a test process builds hundreds).
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The service's metrics, in the Prometheus text format (by prom-client) at GET /metrics on METRICS_PORT
 * (metrics-server.ts) and GET /backoffice/v1/metrics. Under the supervisor the processes' metrics are aggregated
 * (node:cluster messages through the supervisor): counters and histograms summed, gauges read from the database by
 * their maximum. Names: `compliance_<what>_total` for counters, `compliance_<what>_<unit>` otherwise.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly counters = new Map<string, Counter>();
  private readonly histograms = new Map<string, Histogram>();
  private readonly gaugeReads = new Map<string, GaugeRead[]>();

  constructor() {
    if (cluster.isWorker) answerSupervisor(this.registry);
  }

  /**
   * The counter of this name, created on first use; areas name theirs where they count. `known` label sets are
   * exported at 0 from the start, so a rate over each series is defined before its first increment.
   */
  counter<Label extends string = string>(
    name: string,
    help: string,
    labelNames: readonly Label[] = [],
    known: ReadonlyArray<Record<Label, string>> = [],
  ): Counter<Label> {
    let counter = this.counters.get(name) as Counter<Label> | undefined;
    if (!counter) {
      counter = new Counter<Label>({ name, help, labelNames, registers: [this.registry] });
      for (const labels of known) counter.inc(labels as Partial<Record<Label, string>>, 0);
      this.counters.set(name, counter as Counter);
    }
    return counter;
  }

  /** The histogram of this name, created on first use. */
  histogram(name: string, help: string, labelNames: readonly string[], buckets: number[]): Histogram {
    let histogram = this.histograms.get(name);
    if (!histogram) {
      histogram = new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
      this.histograms.set(name, histogram);
    }
    return histogram;
  }

  /**
   * A gauge read at each scrape: one number, or one series per label set. Several readers may share a name (each
   * review queue adds its own series to the review gauges); the gauge is the union of what they return.
   */
  gauge(name: string, help: string, read: GaugeRead, options: GaugeOptions = {}): void {
    const existing = this.gaugeReads.get(name);
    if (existing) {
      existing.push(read);
      return;
    }
    const reads = [read];
    this.gaugeReads.set(name, reads);
    new Gauge({
      name,
      help,
      labelNames: options.labelNames ?? [],
      registers: [this.registry],
      aggregator: options.aggregator ?? 'max',
      async collect() {
        const values = await Promise.all(reads.map((r) => r()));
        // A label set gone since the last scrape (a list no longer served) must not linger.
        this.reset();
        for (const value of values) {
          if (typeof value === 'number') this.set(value);
          else for (const series of value) this.set(series.labels, series.value);
        }
      },
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** This process's metrics: the service's, then the process's own. */
  async ownText(): Promise<string> {
    const [service, own] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return `${service}\n${own}`;
  }

  /** Every process's metrics aggregated under the supervisor; this process's alone otherwise, or if it does not answer. */
  async text(): Promise<string> {
    if (cluster.isWorker) {
      const summed = await askSupervisor();
      if (summed !== undefined) return summed;
    }
    return this.ownText();
  }
}

/**
 * In a process the supervisor started: answers its requests for this process's metrics (prom-client's cluster
 * protocol) with the process's own and, once its service is built, the service's. Called first thing, so that a
 * process still starting answers a scrape at once instead of making it wait for a reply that cannot come.
 */
export function answerSupervisor(service?: Registry): void {
  AggregatorRegistry.setRegistries(service ? [processMetrics(), service] : [processMetrics()]);
  // Its listener is added once per process, however often this runs.
  new AggregatorRegistry();
}

/**
 * Shares one read among the gauges collected from it at a scrape (two gauges of one statement): the read runs
 * once while it is in flight.
 */
export function readOncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let reading: Promise<T> | undefined;
  return () =>
    (reading ??= read().finally(() => {
      reading = undefined;
    }));
}

/** Seconds from `since` to `now`, never negative; 0 when there is nothing. */
export const ageSeconds = (now: Date, since: Date | null | undefined): number =>
  since ? Math.max(0, (now.getTime() - since.getTime()) / 1000) : 0;

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

/**
 * In the supervisor: aggregates the children's metrics, for whichever child asks (its back-office alias) and for
 * the supervisor's own metrics port. Returns the function that gives the aggregated text.
 */
export function aggregateChildrenMetrics(): () => Promise<string> {
  const aggregator = new AggregatorRegistry();
  const clusterMetrics = () => aggregator.clusterMetrics();
  cluster.on('message', (child, message: { type?: unknown; id?: number }) => {
    if (message?.type !== REQUEST) return;
    clusterMetrics().then(
      (text) => child.send({ type: REPLY, id: message.id, text }),
      () => child.send({ type: REPLY, id: message.id }),
    );
  });
  return clusterMetrics;
}

/** The Prometheus text format's content type, as prom-client writes it. */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;
