/**
 * Prometheus metrics, in the text exposition format 0.0.4, without a client library: the app needs
 * two counters and three histograms, which take fewer lines than a registry's setup. Label values come from closed
 * sets (route templates, procedure names, job names) so that no request can grow the series without bound.
 * Per process on purpose, also with several: Prometheus scrapes each process (its own target) and sums them.
 */

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { heavyWorkStats } from './workers/heavy-work';

/** Seconds: from a cached list request (~5 ms) to a cold PDF (several seconds). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Labels<Name extends string = string> = Record<Name, string>;

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const labelText = (labels: Labels) => {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
};
/**
 * A metric's series by their label values, one map level per label, in the order the metric names them: an
 * observation finds its series by the values' own strings (a route label, a method, a status class: the same few
 * strings, whose hashes V8 keeps in them), where a key joining them was a new string to build and hash on every
 * request (`npm run bench -- scale`). `all` lists the series in the order they were first observed.
 */
class SeriesIndex<Name extends string, S> {
  private readonly root = new Map<string, unknown>();
  readonly all: S[] = [];

  constructor(
    private readonly names: readonly Name[],
    private readonly create: (labels: Labels<Name>) => S,
  ) {}

  of(labels: Labels<Name>): S {
    const { names } = this;
    let level = this.root;
    for (let i = 0; i < names.length - 1; i++) {
      const value = labels[names[i] as Name];
      let next = level.get(value) as Map<string, unknown> | undefined;
      if (!next) {
        next = new Map();
        level.set(value, next);
      }
      level = next;
    }
    const last = names.length === 0 ? '' : labels[names[names.length - 1] as Name];
    let series = level.get(last) as S | undefined;
    if (series === undefined) {
      series = this.create(labels);
      level.set(last, series);
      this.all.push(series);
    }
    return series;
  }
}

class Histogram<Name extends string> {
  private readonly series: SeriesIndex<Name, { labels: Labels<Name>; counts: number[]; sum: number; count: number }>;
  constructor(
    readonly name: string,
    readonly help: string,
    labelNames: readonly Name[],
  ) {
    this.series = new SeriesIndex(labelNames, (labels) => ({ labels, counts: DURATION_BUCKETS.map(() => 0), sum: 0, count: 0 }));
  }

  observe(labels: Labels<Name>, seconds: number) {
    const s = this.series.of(labels);
    for (let i = 0; i < DURATION_BUCKETS.length; i++) if (seconds <= (DURATION_BUCKETS[i] ?? 0)) s.counts[i] = (s.counts[i] ?? 0) + 1;
    s.sum += seconds;
    s.count += 1;
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const s of this.series.all) {
      DURATION_BUCKETS.forEach((le, i) => {
        lines.push(`${this.name}_bucket${labelText({ ...s.labels, le: String(le) })} ${s.counts[i] ?? 0}`);
      });
      lines.push(`${this.name}_bucket${labelText({ ...s.labels, le: '+Inf' })} ${s.count}`);
      lines.push(`${this.name}_sum${labelText(s.labels)} ${s.sum}`);
      lines.push(`${this.name}_count${labelText(s.labels)} ${s.count}`);
    }
    return lines;
  }
}

class Counter<Name extends string> {
  private readonly series: SeriesIndex<Name, { labels: Labels<Name>; value: number }>;
  constructor(
    readonly name: string,
    readonly help: string,
    labelNames: readonly Name[],
  ) {
    this.series = new SeriesIndex(labelNames, (labels) => ({ labels, value: 0 }));
  }

  inc(labels: Labels<Name>) {
    this.series.of(labels).value += 1;
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const s of this.series.all) lines.push(`${this.name}${labelText(s.labels)} ${s.value}`);
    return lines;
  }
}

/** One set per process: each process of a deployment is scraped on its own, as Prometheus expects. */
export const metrics = {
  requests: new Histogram('facturier_http_request_duration_seconds', 'HTTP request durations by route, method and status class', [
    'route',
    'method',
    'status',
  ]),
  pdfs: new Histogram('facturier_pdf_render_duration_seconds', 'PDF renderings by outcome', ['outcome']),
  jobRuns: new Histogram('facturier_job_run_duration_seconds', 'Scheduler job runs by job and status', ['job', 'status']),
  jobSkips: new Counter('facturier_job_skipped_total', 'Scheduler runs skipped because another process held the lease', ['job']),
};

// How late the event loop runs its callbacks: every request waits at least that long (a CPU-bound task on the main
// thread shows here first). Sampled every 10 ms, reset at each scrape, so each value covers the last interval.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

const NANOSECONDS_PER_SECOND = 1_000_000_000;

function eventLoopLines(): string[] {
  const name = 'facturier_event_loop_delay_seconds';
  const seconds = (ns: number) => (Number.isFinite(ns) ? ns / NANOSECONDS_PER_SECOND : 0);
  const lines = [
    `# HELP ${name} Event-loop delay since the previous scrape (quantile 1 is the maximum)`,
    `# TYPE ${name} summary`,
    `${name}{quantile="0.5"} ${seconds(loopDelay.percentile(50))}`,
    `${name}{quantile="0.99"} ${seconds(loopDelay.percentile(99))}`,
    `${name}{quantile="1"} ${seconds(loopDelay.max)}`,
    `${name}_sum ${seconds(loopDelay.mean * loopDelay.count)}`,
    `${name}_count ${loopDelay.count}`,
  ];
  loopDelay.reset();
  return lines;
}

function heavyWorkLines(): string[] {
  const stats = heavyWorkStats() ?? {
    workers: 0,
    busy: 0,
    queued: 0,
    completed: 0,
    failed: 0,
    timedOut: 0,
    outOfMemory: 0,
    refusedBusy: 0,
  };
  const gauge = (name: string, help: string, value: number) => [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${value}`];
  const tasks = 'facturier_heavy_tasks_total';
  return [
    ...gauge('facturier_heavy_workers', 'Worker threads started for heavy work (validations, imports, PDFs)', stats.workers),
    ...gauge('facturier_heavy_tasks_busy', 'Heavy tasks running in a worker', stats.busy),
    ...gauge('facturier_heavy_tasks_queued', 'Heavy tasks waiting for a worker', stats.queued),
    `# HELP ${tasks} Heavy tasks by outcome (timeout: over the time budget; memory: over the memory budget; refused: queue full)`,
    `# TYPE ${tasks} counter`,
    `${tasks}{outcome="completed"} ${stats.completed}`,
    `${tasks}{outcome="failed"} ${stats.failed}`,
    `${tasks}{outcome="timeout"} ${stats.timedOut}`,
    `${tasks}{outcome="memory"} ${stats.outOfMemory}`,
    `${tasks}{outcome="refused"} ${stats.refusedBusy}`,
  ];
}

/** The exposition text: the app's series, the event loop and the heavy-work pool, then the process's memory and uptime. */
export function renderMetrics(extra: { databaseBytes: number | null }): string {
  const memory = process.memoryUsage();
  const gauges: [string, string, number][] = [
    ['facturier_process_resident_memory_bytes', 'Resident set size', memory.rss],
    ['facturier_process_heap_used_bytes', 'V8 heap in use', memory.heapUsed],
    ['facturier_process_uptime_seconds', 'Seconds since the process started', Math.round(process.uptime())],
  ];
  if (extra.databaseBytes !== null)
    gauges.push([
      'facturier_database_size_bytes',
      'The database: SQLite file and its WAL, or pg_database_size on PostgreSQL',
      extra.databaseBytes,
    ]);
  const lines = [
    ...metrics.requests.render(),
    ...metrics.pdfs.render(),
    ...metrics.jobRuns.render(),
    ...metrics.jobSkips.render(),
    ...eventLoopLines(),
    ...heavyWorkLines(),
    ...gauges.flatMap(([name, help, value]) => [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${value}`]),
  ];
  return `${lines.join('\n')}\n`;
}

/** Seconds since a `performance.now()` reading. */
export const secondsSince = (started: number) => (performance.now() - started) / 1000;
