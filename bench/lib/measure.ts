/** One load scenario against one server: preflight, warm-up, the measured run and its printed line. */
import { runLoad } from './load.js';
import { cpuMs, json, peakRssMiB, rssMiB } from './net.js';
import type { ScenarioResult, Target } from './report.js';
import type { Server } from './servers.js';
import type { LoadScenario } from '../scenarios/api.js';

/**
 * Wait until the sandbox has dealt with the callbacks the last scenario caused (no delivery pending or
 * in flight), so their work does not spill into the next scenario. Bounded; returns what is left.
 */
export async function drainDeliveries(sandbox: Server, maxMs: number): Promise<number | null> {
  const deadline = performance.now() + maxMs;
  for (;;) {
    let left = 0;
    for (const status of ['pending', 'delivering']) {
      const res = await json<{ meta?: { total_count: number } }>(
        'GET',
        `${sandbox.url}/_sandbox/deliveries?status=${status}&per_page=1`,
      );
      if (res.status !== 200 || !res.body.meta) return null; // no delivery log in this build
      left += res.body.meta.total_count;
    }
    if (left === 0 || performance.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function measure(
  timing: { warmupSec: number; durationSec: number },
  target: Target,
  baseUrl: string,
  s: LoadScenario,
  pid?: number,
): Promise<ScenarioResult> {
  const { warmupSec, durationSec } = timing;
  const base: ScenarioResult = {
    id: s.id,
    title: s.title,
    target,
    status: 'ok',
    connections: s.connections,
    overallRate: s.overallRate,
  };
  try {
    const pre = await s.preflight();
    if (pre.status === 501)
      return { ...base, status: 'not available', note: 'answers 501 (not implemented yet)' };
    if (pre.status < 200 || pre.status > 299) {
      return {
        ...base,
        status: 'failed',
        note: `preflight answered ${pre.status}: ${JSON.stringify(pre.body).slice(0, 300)}`,
      };
    }
    const problem = s.check?.(pre.body);
    if (problem) return { ...base, status: 'failed', note: problem };
  } catch (err) {
    return { ...base, status: 'failed', note: `preflight: ${(err as Error).message}` };
  }
  const load = {
    url: baseUrl,
    requests: s.requests,
    connections: s.connections,
    overallRate: s.overallRate,
    setupClient: s.setupClient,
  };
  if (warmupSec > 0) await runLoad({ ...load, durationSec: warmupSec });
  // Server CPU per request: far steadier than req/s on a machine other work shares.
  const cpuBefore = pid ? cpuMs(pid) : null;
  let rssMax = 0;
  const sampler = pid
    ? setInterval(() => (rssMax = Math.max(rssMax, rssMiB(pid) ?? 0)), 200)
    : undefined;
  const r = await runLoad({ ...load, durationSec }).finally(() => clearInterval(sampler));
  const cpuAfter = pid ? cpuMs(pid) : null;
  const cpuUsPerRequest =
    cpuBefore !== null && cpuAfter !== null && r.requests
      ? ((cpuAfter - cpuBefore) * 1000) / r.requests
      : undefined;
  const hwm = pid ? peakRssMiB(pid) : null;
  return {
    ...base,
    ...r,
    cpuUsPerRequest,
    ...(rssMax ? { rssMaxMiB: Math.round(rssMax) } : {}),
    ...(hwm ? { peakRssAfterMiB: Math.round(hwm) } : {}),
  };
}

/** A measured number to `digits` places; `?` when the scenario has none. */
const fixed = (n: number | undefined, digits: number) =>
  n === undefined ? '?' : n.toFixed(digits);

/** The one line a scenario's result prints as it finishes. */
export function printResult(r: ScenarioResult, log: (m: string) => void): void {
  if (r.status !== 'ok') return log(`${r.title}: ${r.status}${r.note ? ` — ${r.note}` : ''}`);
  const codes = Object.entries(r.statuses ?? {})
    .map(([c, n]) => `${c}×${n}`)
    .join(' ');
  const cpu =
    r.cpuUsPerRequest !== undefined
      ? `, server CPU ${r.cpuUsPerRequest.toFixed(0)} µs/req, RSS ≤ ${r.rssMaxMiB} MiB (peak so far ${r.peakRssAfterMiB})`
      : '';
  log(
    `${r.title}: ${fixed(r.rps, 0)} req/s, p50 ${fixed(r.p50, 2)} ms, p99 ${fixed(r.p99, 2)} ms, errors ${r.errors}${cpu} [${codes}]`,
  );
}
