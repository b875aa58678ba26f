// prom-client metrics whose values are read at scrape time from plain numbers the service keeps
// (counters and typed arrays bumped on the hot paths), so a request pays an increment, never a
// label lookup: prom-client's own observe hashes its labels on every call.
import { Counter, Gauge, Histogram, type MetricType, type MetricObjectWithValues, type MetricValueWithName, type Registry } from 'prom-client';

type Labels = Record<string, string>;
/** One series: its labels (none: `{}`) and value. */
export type Sample = readonly [labels: Labels, value: number];

interface Spec {
  name: string;
  help: string;
  labelNames?: readonly string[];
}

/** A counter whose series are the totals `read` returns at each scrape. */
export function pulledCounter(registry: Registry, spec: Spec, read: () => Iterable<Sample>): Counter {
  return new Counter({
    name: spec.name,
    help: spec.help,
    labelNames: spec.labelNames ?? [],
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.inc(labels, value);
    },
  });
}

/** A gauge whose series are the values `read` returns at each scrape (a series left out is absent). */
export function pulledGauge(registry: Registry, spec: Spec, read: () => Iterable<Sample>): Gauge {
  return new Gauge({
    name: spec.name,
    help: spec.help,
    labelNames: spec.labelNames ?? [],
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.set(labels, value);
    },
  });
}

/** One labelled series of a pulled histogram: counts per bucket (not cumulative; one more than the bounds, for +Inf) and the sum. */
export interface HistogramSeries {
  labels: Labels;
  buckets: ArrayLike<number>;
  sum: number;
}

/**
 * A histogram read from bucket counts kept elsewhere. prom-client has no way to set a histogram's
 * buckets, so this one answers the registry's two read calls itself, in the shape its own
 * histograms give (cumulative `_bucket` series with `le`, then `_sum` and `_count`).
 */
export class PulledHistogram extends Histogram<string> {
  private readonly metricName: string;
  private readonly helpText: string;

  constructor(
    registry: Registry,
    spec: Spec,
    private readonly bounds: readonly number[],
    private readonly read: () => Iterable<HistogramSeries>,
  ) {
    super({ name: spec.name, help: spec.help, labelNames: [...(spec.labelNames ?? [])], buckets: [...bounds], registers: [registry] });
    this.metricName = spec.name;
    this.helpText = spec.help;
  }

  override async get(): Promise<MetricObjectWithValues<MetricValueWithName<string>>> {
    const values: MetricValueWithName<string>[] = [];
    for (const series of this.read()) {
      let cumulative = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        cumulative += series.buckets[i] ?? 0;
        values.push({ metricName: `${this.metricName}_bucket`, labels: { ...series.labels, le: this.bounds[i]! }, value: cumulative });
      }
      cumulative += series.buckets[this.bounds.length] ?? 0;
      values.push({ metricName: `${this.metricName}_bucket`, labels: { ...series.labels, le: '+Inf' }, value: cumulative });
      values.push({ metricName: `${this.metricName}_sum`, labels: series.labels, value: series.sum });
      values.push({ metricName: `${this.metricName}_count`, labels: series.labels, value: cumulative });
    }
    // The type is declared an enum but is the plain word at run time (prom-client exports no enum).
    return { name: this.metricName, help: this.helpText, type: 'histogram' as unknown as MetricType, values, aggregator: 'sum', collect: () => {} };
  }

  /** What the registry reads when it writes the text format (prom-client's histograms have it too). */
  getForPromString(): Promise<MetricObjectWithValues<MetricValueWithName<string>>> {
    return this.get();
  }
}
