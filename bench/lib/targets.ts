import { fmt, ms, type BenchReport, type TargetCheck } from './report.js';

/**
 * The targets a run is held to (docs/benchmarks.md): throughput and server CPU against the baseline,
 * errors, deep pages, cold start, callbacks, memory and Prism, each measured, goal and met. The tables
 * that show them are in report.ts.
 */

/** Scenario, the most server CPU per request it may take (× the baseline's), label. */
const CPU_TARGETS: ReadonlyArray<readonly [string, number, string]> = [
  ['invoice-create', 4, 'invoice create'],
  ['payment', 7, 'wallet payment'],
  ['list-page-1', 4, 'list page 1'],
  ['hmac-get', 1.6, 'HMAC signed GET'],
];

/** The floor row (bench/floor-server.mjs) that a target's scenario is compared with. */
const FLOOR_OF: Record<string, string> = {
  'invoice-create': 'floor-create',
  payment: 'floor-payment',
  'hmac-get': 'floor-signed-get',
};

/** The targets, from one run. */
export function checkTargets(r: Omit<BenchReport, 'targets'>): TargetCheck[] {
  const by = (id: string) => r.scenarios.find((s) => s.id === id && s.status === 'ok');
  const ratio = (id: string, goal: number, label: string): TargetCheck => {
    const s = by(id);
    return {
      target: label,
      measured: s?.ratio !== undefined ? `${s.ratio.toFixed(2)} ×` : 'not measured',
      goal: `≥ ${goal} ×`,
      met: s?.ratio !== undefined ? s.ratio >= goal : null,
    };
  };
  const checks: TargetCheck[] = [
    ratio('hmac-get', 0.4, 'HMAC signed GET vs baseline'),
    ratio('invoice-create', 0.3, 'Token invoice create vs baseline'),
  ];
  // The hot paths' server CPU per request, as a multiple of the baseline's (lower is better).
  for (const [id, goal, label] of CPU_TARGETS) {
    const s = by(id);
    const floor = by(FLOOR_OF[id] ?? '');
    checks.push({
      target: `${label}: server CPU ÷ baseline's`,
      measured:
        s?.cpuRatio !== undefined
          ? `${s.cpuRatio.toFixed(1)} ×${floor?.cpuRatio !== undefined ? ` (floor ${floor.cpuRatio.toFixed(1)} ×)` : ''}`
          : 'not measured',
      goal: `≤ ${goal} ×`,
      met: s?.cpuRatio !== undefined ? s.cpuRatio <= goal : null,
    });
  }
  const sandbox = r.scenarios.filter((s) => s.target === 'sandbox' && s.status === 'ok');
  const errors = sandbox.reduce((n, s) => n + (s.errors ?? 0), 0);
  checks.push({
    target: 'errors (all sandbox scenarios)',
    measured: String(errors),
    goal: '0',
    met: errors === 0,
  });
  const fixed = by('list-deep-fixed');
  checks.push({
    target: `deep page p99 at ${fixed?.overallRate ?? 100} req/s`,
    measured: fixed ? `${ms(fixed.p99)} ms` : 'not measured',
    goal: '< 25 ms',
    met: fixed?.p99 !== undefined ? fixed.p99 < 25 : null,
  });
  const deep = by('list-deep');
  const first = by('list-page-1');
  const depthRatio = deep?.rps && first?.rps ? deep.rps / first.rps : undefined;
  checks.push({
    target: 'deep page req/s vs page 1',
    measured: depthRatio !== undefined ? `${depthRatio.toFixed(2)} ×` : 'not measured',
    goal: '≥ 0.5 ×',
    met: depthRatio !== undefined ? depthRatio >= 0.5 : null,
  });
  checks.push({
    target: 'cold start (median of 5)',
    measured: r.coldStart ? `${fmt(r.coldStart.medianMs)} ms` : 'not measured',
    goal: '< 300 ms',
    met: r.coldStart ? r.coldStart.medianMs < 300 : null,
  });
  checks.push({
    target: 'callback deliveries',
    measured:
      r.callbacks.deliveriesPerSecond !== undefined
        ? `${fmt(r.callbacks.deliveriesPerSecond)} /s`
        : r.callbacks.status,
    goal: '≥ 1,000 /s',
    met:
      r.callbacks.deliveriesPerSecond !== undefined
        ? r.callbacks.deliveriesPerSecond >= 1000
        : null,
  });
  checks.push({
    target: 'peak RSS under load',
    measured:
      r.peakRssMiB !== null
        ? `${fmt(r.peakRssMiB)} MiB (${fmt(r.peakRssMiB * 1.048576)} MB)`
        : 'not measured',
    goal: '< 150 MB',
    met: r.peakRssMiB !== null ? r.peakRssMiB * 1.048576 < 150 : null,
  });
  for (const [peer, own] of [
    ['peer-invoice-create', 'invoice-create'],
    ['peer-list-page-1', 'list-page-1'],
  ] as const) {
    const p = r.scenarios.find((s) => s.id === peer && s.target === 'prism');
    const o = by(own);
    const x = p?.status === 'ok' && p.rps && o?.rps ? o.rps / p.rps : undefined;
    checks.push({
      target: `vs Prism: ${o?.title ?? own}`,
      measured:
        x !== undefined
          ? `${x.toFixed(1)} ×`
          : p
            ? `Prism: ${p.status}${p.note ? ` (${p.note})` : ''}`
            : 'not measured (run with --with-prism)',
      goal: '≥ 5 ×',
      met: x !== undefined ? x >= 5 : null,
    });
  }
  return checks;
}
