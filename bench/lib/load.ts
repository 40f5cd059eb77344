import autocannon, { type RequestSpec, type Result } from 'autocannon';
import { itemAt } from '../../src/shared/defined.js';

export interface LoadOptions {
  /** Base URL of the server (`http://127.0.0.1:port`). */
  url: string;
  requests: RequestSpec[];
  connections: number;
  durationSec: number;
  /** Fixed request rate over all connections; saturated (as fast as answers come) when absent. */
  overallRate?: number;
  timeoutSec?: number;
  /** Called once per connection (per-connection state such as an HMAC key). */
  setupClient?: (client: Client) => void;
}

/** The per-connection client of autocannon (only what the bench uses). */
export interface Client {
  setRequests(requests: RequestSpec[]): void;
}

export interface LoadResult {
  requests: number;
  durationSec: number;
  rps: number;
  /** Latency percentiles in ms, from the exact response times (autocannon's histogram has 1 ms steps). */
  p50: number;
  p99: number;
  max: number;
  /** Connection errors and timeouts, plus answers that were not 2xx. */
  errors: number;
  statuses: Record<string, number>;
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return itemAt(sorted, Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1)));
}

/** Run autocannon for a bounded time and summarize it. */
export function runLoad(o: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    let times = new Float64Array(1 << 16);
    let n = 0;
    const instance = autocannon(
      {
        url: o.url,
        connections: o.connections,
        duration: o.durationSec,
        pipelining: 1,
        timeout: o.timeoutSec ?? 10,
        requests: o.requests,
        ...(o.overallRate ? { overallRate: o.overallRate } : {}),
        ...(o.setupClient ? { setupClient: o.setupClient } : {}),
      },
      (err: Error | null, r: Result) => {
        clearTimeout(guard);
        if (err) return reject(err);
        const sorted = times.subarray(0, n).sort();
        const statuses: Record<string, number> = {};
        for (const [code, s] of Object.entries(r.statusCodeStats ?? {}))
          statuses[code] = Number(s.count);
        const durationSec = (r.finish.getTime() - r.start.getTime()) / 1000 || r.duration;
        resolve({
          requests: n,
          durationSec,
          rps: n / durationSec,
          p50: percentile(sorted, 0.5),
          p99: percentile(sorted, 0.99),
          max: percentile(sorted, 1),
          errors: r.errors + r.non2xx + (r.mismatches ?? 0),
          statuses,
        });
      },
    );
    instance.on(
      'response',
      (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
        if (n === times.length) {
          const bigger = new Float64Array(times.length * 2);
          bigger.set(times);
          times = bigger;
        }
        times[n++] = responseTime;
      },
    );
    // autocannon stops by itself; this only guards against a hung server.
    const guard = setTimeout(() => instance.stop(), (o.durationSec + 30) * 1000);
  });
}
