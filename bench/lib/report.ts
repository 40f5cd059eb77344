import { cpus, loadavg, totalmem } from 'node:os';
import type { LoadResult } from './load.js';
import { itemAt } from '../../src/shared/defined.js';

export type Target = 'baseline' | 'floor' | 'sandbox' | 'prism';

export interface ScenarioResult extends Partial<LoadResult> {
  id: string;
  title: string;
  target: Target;
  status: 'ok' | 'not available' | 'failed';
  note?: string;
  connections?: number;
  overallRate?: number;
  /** req/s ÷ baseline req/s (the mean of the baseline runs before and after). */
  ratio?: number;
  /** CPU time the server process used per request during the measured run (user + system), µs. */
  cpuUsPerRequest?: number;
  /** cpuUsPerRequest ÷ the baseline's (the mean of the baseline runs before and after). */
  cpuRatio?: number;
  /** Highest RSS of the server sampled during the measured run (MiB). */
  rssMaxMiB?: number;
  /** The server's VmHWM (peak RSS since it started) right after this run (MiB). */
  peakRssAfterMiB?: number;
}

export interface ColdStart {
  runsMs: number[];
  medianMs: number;
  /** What the CLI itself reports in its banner ("ready in … ms"), from its first line of code. */
  bannerMs: number[];
}

export interface Machine {
  cores: number;
  cpu: string;
  memoryGiB: number;
  node: string;
  platform: string;
  date: string;
  durability: string;
  loadAverageAtStart: number[];
  loadAverageAtEnd?: number[];
}

export interface TargetCheck {
  target: string;
  measured: string;
  goal: string;
  met: boolean | null;
}

export interface BenchReport {
  quick: boolean;
  machine: Machine;
  settings: {
    connections: number;
    durationSec: number;
    warmupSec: number;
    invoices: number;
    deepPage: number;
    nodeFlags: string[];
  };
  seedMs: number;
  baselineRps: number;
  scenarios: ScenarioResult[];
  coldStart?: ColdStart;
  baselineColdStart?: ColdStart;
  peakRssMiB: number | null;
  /** VmHWM, VmRSS, RssAnon, RssFile of the sandbox at the end of the load scenarios. */
  memoryMiB?: Record<string, number> | null;
  callbacks: {
    status: string;
    deliveriesPerSecond?: number;
    p50Ms?: number;
    p99Ms?: number;
    errors?: number;
    events?: number;
  };
  hostedPage: { status: string; results?: unknown[] };
  targets: TargetCheck[];
}

export function machine(durability: string): Machine {
  const list = cpus();
  return {
    cores: list.length,
    cpu: list[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    date: new Date().toISOString(),
    durability,
    loadAverageAtStart: loadavg().map((x) => +x.toFixed(2)),
  };
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? itemAt(s, mid) : (itemAt(s, mid - 1) + itemAt(s, mid)) / 2;
}

/** A number for the tables ('–' when there is none). */
export const fmt = (n: number | undefined, digits = 0) =>
  n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits);
/** Milliseconds for the tables: two decimals under 10, one above ('–' when there are none). */
export const ms = (n: number | undefined) =>
  n === undefined ? '–' : n < 10 ? n.toFixed(2) : n.toFixed(1);

function scenarioRows(list: ScenarioResult[]): string[] {
  const rows = [
    '| scenario | target | req/s | p50 ms | p99 ms | errors | × baseline | server CPU µs/req | CPU × baseline | server RSS MiB |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const s of list) {
    if (s.status !== 'ok') {
      rows.push(
        `| ${s.title} | ${s.target} | ${s.status}${s.note ? `: ${s.note.replaceAll('|', '\\|')}` : ''} | | | | | | | |`,
      );
      continue;
    }
    const rate = s.overallRate ? ` (fixed ${s.overallRate}/s)` : '';
    rows.push(
      `| ${s.title} | ${s.target} | ${fmt(s.rps)}${rate} | ${ms(s.p50)} | ${ms(s.p99)} | ${s.errors ?? 0} | ${s.ratio !== undefined ? s.ratio.toFixed(2) : '–'} | ${fmt(s.cpuUsPerRequest)} | ${s.cpuRatio !== undefined ? s.cpuRatio.toFixed(1) : '–'} | ${fmt(s.rssMaxMiB)} |`,
    );
  }
  const notes = list.filter((s) => s.status === 'ok' && s.note);
  if (notes.length) rows.push('', ...notes.map((s) => `- ${s.title}: ${s.note}.`));
  return rows;
}

/** The results as markdown (the generated part of docs/benchmarks.md). */
export function toMarkdown(r: BenchReport): string {
  const m = r.machine;
  const out = [
    `Run of ${m.date.slice(0, 16).replace('T', ' ')} UTC${r.quick ? ' (**--quick**: smoke run, numbers not meaningful)' : ''}: ` +
      `${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}, durability \`${m.durability}\`, ` +
      `load average ${m.loadAverageAtStart.join(' / ')} at start${m.loadAverageAtEnd ? `, ${m.loadAverageAtEnd.join(' / ')} at end` : ''}.`,
    `${r.settings.connections} connections, ${r.settings.durationSec} s per scenario after ${r.settings.warmupSec} s of warm-up, ` +
      `${r.settings.invoices.toLocaleString('en')} seeded invoices (seeded in ${fmt(r.seedMs)} ms), node flags: ${r.settings.nodeFlags.length ? `\`${r.settings.nodeFlags.join(' ')}\`` : 'none'}. ` +
      `Baseline = mean of the bare Hono runs before and after: ${fmt(r.baselineRps)} req/s.`,
    '',
    '### Targets',
    '',
    '| target | measured | goal | met |',
    '|---|--:|--:|:-:|',
    ...r.targets.map(
      (t) =>
        `| ${t.target} | ${t.measured} | ${t.goal} | ${t.met === null ? '–' : t.met ? 'yes' : '**no**'} |`,
    ),
    '',
    '### Load scenarios',
    '',
    ...scenarioRows(r.scenarios),
    '',
    '### Start-up, memory, callbacks, hosted page',
    '',
    `- Cold start (spawn → first 200 from \`/healthz\`, fresh database, default fixtures): median **${fmt(r.coldStart?.medianMs)} ms** ` +
      `(runs: ${r.coldStart?.runsMs.map((x) => fmt(x)).join(', ') ?? '–'}; the banner's own "ready in": ${r.coldStart?.bannerMs.map((x) => fmt(x)).join(', ') ?? '–'} ms).` +
      (r.baselineColdStart
        ? ` The bare Hono app, same measure: median ${fmt(r.baselineColdStart.medianMs)} ms.`
        : ''),
    `- Peak RSS of the sandbox process over the whole run (VmHWM): **${fmt(r.peakRssMiB ?? undefined)} MiB**` +
      (r.memoryMiB
        ? ` (at the end: RSS ${fmt(r.memoryMiB.VmRSS)} MiB = ${fmt(r.memoryMiB.RssAnon)} anonymous + ${fmt(r.memoryMiB.RssFile)} file-backed, mostly the node binary).`
        : '.'),
    `- Callback dispatch: ${
      r.callbacks.deliveriesPerSecond !== undefined
        ? `${r.callbacks.events ?? ''} events → **${fmt(r.callbacks.deliveriesPerSecond)} deliveries/s**, commit → receipt p50 ${ms(r.callbacks.p50Ms)} ms, p99 ${ms(r.callbacks.p99Ms)} ms, errors ${r.callbacks.errors ?? 0}`
        : r.callbacks.status
    }.`,
    `- Hosted payment page: ${
      r.hostedPage.results
        ? r.hostedPage.results
            .map((x) => {
              const h = x as { page?: string; bytes?: number; p50_ms?: number; p99_ms?: number };
              return `${h.page}: ${h.bytes} bytes, render p50 ${h.p50_ms} ms, p99 ${h.p99_ms} ms`;
            })
            .join('; ')
        : r.hostedPage.status
    }.`,
  ];
  return out.join('\n');
}

/** The console version: the same tables, aligned. */
export function toConsole(r: BenchReport): string {
  const lines: string[] = [];
  const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
  const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);
  lines.push(
    `${pad('scenario', 52)}${pad('target', 9)}${lpad('req/s', 9)}${lpad('p50 ms', 9)}${lpad('p99 ms', 9)}${lpad('errors', 8)}${lpad('× base', 8)}${lpad('CPU µs/req', 12)}${lpad('CPU ×', 7)}`,
  );
  for (const s of r.scenarios) {
    if (s.status !== 'ok') {
      lines.push(
        `${pad(s.title, 52)}${pad(s.target, 9)}  ${s.status}${s.note ? `: ${s.note}` : ''}`,
      );
      continue;
    }
    lines.push(
      `${pad(s.title, 52)}${pad(s.target, 9)}${lpad(fmt(s.rps), 9)}${lpad(ms(s.p50), 9)}${lpad(ms(s.p99), 9)}${lpad(String(s.errors ?? 0), 8)}${lpad(s.ratio !== undefined ? s.ratio.toFixed(2) : '–', 8)}${lpad(fmt(s.cpuUsPerRequest), 12)}${lpad(s.cpuRatio !== undefined ? s.cpuRatio.toFixed(1) : '–', 7)}`,
    );
  }
  lines.push('');
  for (const t of r.targets)
    lines.push(
      `${t.met === null ? '  –  ' : t.met ? ' ok  ' : ' MISS'} ${pad(t.target, 44)} ${pad(t.measured, 22)} goal ${t.goal}`,
    );
  return lines.join('\n');
}
