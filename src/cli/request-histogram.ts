import type { RequestMetrics } from '../http/request-metrics.js';

/** Upper bounds of the latency buckets, in seconds: from a cached answer's half millisecond to a slow 10 s. */
export const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const NAME = 'tended_http_request_duration_seconds';
const HELP =
  'Time from a request reaching the service to its answer’s headers, by route pattern, method and status; its _count is the request count.';

interface Series {
  /** `route="…",method="…",status="…"`, escaped once. */
  labels: string;
  /** Per bucket, not cumulative (made cumulative when written); the last is +Inf. */
  counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * The request latency histogram, kept here rather than in a prom-client Histogram because it is
 * on every request's path, the hot path's included: prom-client validates and hashes the labels on
 * each observation (~0.6 µs here); this finds the series by one map lookup and adds to two numbers
 * and a bucket (~0.1 µs). Written in the text format next to the registry's own figures.
 */
export class RequestHistogram implements RequestMetrics {
  private readonly series = new Map<string, Series>();

  answered(route: string, method: string, status: number, seconds: number): void {
    const key = `${status} ${method} ${route}`;
    let s = this.series.get(key);
    if (s === undefined) {
      s = {
        labels: `route="${escaped(route)}",method="${escaped(method)}",status="${status}"`,
        counts: new Float64Array(REQUEST_BUCKETS.length + 1),
        sum: 0,
        count: 0,
      };
      this.series.set(key, s);
    }
    let b = 0;
    while (b < REQUEST_BUCKETS.length && seconds > REQUEST_BUCKETS[b]!) b++;
    s.counts[b]!++;
    s.sum += seconds;
    s.count++;
  }

  /** The family in Prometheus' text format (version 0.0.4), or nothing before the first request. */
  text(): string {
    if (this.series.size === 0) return '';
    const lines = [`# HELP ${NAME} ${HELP}`, `# TYPE ${NAME} histogram`];
    for (const s of this.series.values()) {
      let cumulative = 0;
      REQUEST_BUCKETS.forEach((le, i) => {
        cumulative += s.counts[i]!;
        lines.push(`${NAME}_bucket{le="${le}",${s.labels}} ${cumulative}`);
      });
      lines.push(`${NAME}_bucket{le="+Inf",${s.labels}} ${s.count}`);
      lines.push(`${NAME}_sum{${s.labels}} ${s.sum}`);
      lines.push(`${NAME}_count{${s.labels}} ${s.count}`);
    }
    return `${lines.join('\n')}\n`;
  }
}

/** A label value as the text format writes it: backslash, double quote and newline escaped. */
function escaped(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}
