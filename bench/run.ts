/**
 * `npm run bench [-- --quick] [-- --with-prism]`: one run that measures, side by side on 127.0.0.1,
 * a bare Hono app (the baseline), the BUILT sandbox (`node dist/src/cli/main.js start`, as users run
 * it) on a database seeded with 100,000 invoices, cold start, peak RSS, callback dispatch, the hosted
 * page and, with --with-prism, Stoplight Prism mocking the same document. Every run is bounded in
 * time and every child process is killed at the end, on errors and on Ctrl-C.
 *
 * Writes docs/benchmarks.md (between its generated-results markers) and bench/results/latest.json;
 * --quick (the CI smoke run) and --only write bench/results/quick.tmp or partial.tmp (JSON) only, and
 * nothing asserts speed: a run fails only when a scenario could not run at all.
 *
 * This file runs the phases in order; the options are in bench/lib/options.ts, one measured scenario
 * in bench/lib/measure.ts, the phases after the load in bench/lib/extras.ts and the writing of the
 * report in bench/lib/results.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installCleanup, killAllChildren } from './lib/children.js';
import { floorDatabase, floorPhase } from './lib/floor.js';
import { callbackScenario, coldStarts, hostedPageScenario, prismScenarios } from './lib/extras.js';
import { drainDeliveries, measure as measureWith, printResult } from './lib/measure.js';
import { json, memoryMiB, peakRssMiB } from './lib/net.js';
import { parseOptions, USAGE } from './lib/options.js';
import {
  machine,
  toConsole,
  type BenchReport,
  type ScenarioResult,
  type Target,
} from './lib/report.js';
import { applyBaselineRatios, writeResults } from './lib/results.js';
import { benchKeys, seedDatabase } from './lib/seed.js';
import { checkTargets } from './lib/targets.js';
import { printSoak, runSoak, writeSoak } from './lib/soak.js';
import { ensureBuilt, startSandbox, startScript, type Server } from './lib/servers.js';
import { baselineScenario, sandboxScenarios, type LoadScenario } from './scenarios/api.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const opts = parseOptions();

if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}

const {
  quick,
  connections,
  durationSec,
  warmupSec,
  invoices,
  deepPage,
  deepRate,
  nodeFlags,
  only,
} = opts;
const log = (m: string) => console.log(`bench: ${m}`);
const measure = (target: Target, baseUrl: string, s: LoadScenario, pid?: number) =>
  measureWith({ warmupSec, durationSec }, target, baseUrl, s, pid);
const print = (r: ScenarioResult) => printResult(r, log);

/** `--soak N`: the soak mode (bench/lib/soak.ts) instead of the load scenarios. */
async function soak(seconds: number): Promise<void> {
  installCleanup();
  if (!Number.isFinite(seconds) || seconds < 20)
    throw new Error('--soak needs a number of seconds ≥ 20 (warm-up + 10 s of samples)');
  await ensureBuilt({ root: ROOT, build: !opts.noBuild, log });
  const result = await runSoak({
    root: ROOT,
    seconds,
    warmupSec: Number(opts.soakWarmup ?? Math.min(60, Math.max(10, Math.round(seconds / 5)))),
    toleranceMiB: Number(opts.soakTolerance),
    tolerancePct: Number(opts.soakTolerancePct),
    workers: Number(opts.soakWorkers),
    nodeFlags,
    durability: opts.durability,
    log,
  });
  printSoak(result, log);
  log(`wrote ${writeSoak(ROOT, result)}`);
  if (!result.passed) throw new Error(`soak failed: ${result.verdict}`);
}

async function main(): Promise<void> {
  if (opts.soak !== undefined) return soak(Number(opts.soak));
  installCleanup();
  const wanted = (id: string) => !only || only.has(id);
  await ensureBuilt({ root: ROOT, build: !opts.noBuild, log });
  const m = machine(opts.durability);
  const runId = Date.now().toString(36);
  const work = mkdtempSync(join(tmpdir(), 'paysandbox-bench-'));
  const scenarios: ScenarioResult[] = [];
  const servers: Server[] = [];
  let peakRss: number | null = null;
  let memory: Record<string, number> | null = null;
  let seedMs = 0;
  try {
    const receiver = await startScript({
      root: ROOT,
      script: 'receiver.mjs',
      nodeFlags: [],
      readyPath: '/count',
    });
    servers.push(receiver);
    const db = join(work, 'sandbox.db');
    log(`seeding ${invoices.toLocaleString('en')} invoices into ${db} …`);
    const seeded = await seedDatabase({
      root: ROOT,
      db,
      invoices,
      callbackUrl: `${receiver.url}/callbacks`,
      benchApps: connections,
    });
    seedMs = seeded.seedMs;
    log(`seeded in ${seeded.seedMs.toFixed(0)} ms`);
    const floorDb = floorDatabase(work, db);

    const baseline = await startScript({
      root: ROOT,
      script: 'baseline-server.mjs',
      nodeFlags,
      readyPath: '/healthz',
    });
    servers.push(baseline);
    const sandbox = await startSandbox({
      root: ROOT,
      db,
      nodeFlags,
      extraArgs: ['--durability', opts.durability],
    });
    servers.push(sandbox);
    log(
      `baseline ${baseline.url} (pid ${baseline.child.pid}), sandbox ${sandbox.url} (pid ${sandbox.child.pid})`,
    );
    const keys = await benchKeys(sandbox.url, seeded, connections);

    const baselineBefore = await measure(
      'baseline',
      baseline.url,
      { ...baselineScenario(baseline.url, connections), title: 'bare Hono GET (baseline, before)' },
      baseline.child.pid,
    );
    print(baselineBefore);
    scenarios.push(baselineBefore);
    scenarios.push(
      ...(await floorPhase({
        root: ROOT,
        db: floorDb,
        merchantToken: seeded.quietMerchantToken,
        quietInvoiceIds: seeded.quietInvoiceIds,
        nodeFlags,
        connections,
        runId,
        wanted,
        measure,
        print,
      })),
    );

    const ctx = {
      baseUrl: sandbox.url,
      connections,
      merchantToken: seeded.merchantToken,
      quietMerchantToken: seeded.quietMerchantToken,
      invoiceIds: seeded.invoiceIds,
      quietInvoiceIds: seeded.quietInvoiceIds,
      keys,
      runId,
    };
    const writes = new Set([
      'invoice-create',
      'invoice-create-callbacks',
      'sellorder',
      'payment',
      'payment-callbacks',
    ]);
    for (const s of sandboxScenarios(ctx, { deepPage, deepRate })) {
      if (!wanted(s.id)) continue;
      const r = await measure('sandbox', sandbox.url, s, sandbox.child.pid);
      print(r);
      scenarios.push(r);
      if (writes.has(s.id) && r.status === 'ok') {
        const started = performance.now();
        const left = await drainDeliveries(sandbox, quick ? 15_000 : 60_000);
        const { body } = await json<{ received: number }>('GET', `${receiver.url}/count`);
        r.note = `callbacks: ${body.received} received so far; deliveries drained in ${((performance.now() - started) / 1000).toFixed(1)} s${left ? `, ${left} still pending` : ''}`;
        log(`  ${r.note}`);
      }
    }

    const baselineAfter = await measure(
      'baseline',
      baseline.url,
      { ...baselineScenario(baseline.url, connections), title: 'bare Hono GET (baseline, after)' },
      baseline.child.pid,
    );
    print(baselineAfter);
    scenarios.push(baselineAfter);
    if (opts.serverLog) writeFileSync(opts.serverLog, sandbox.child.output());
    peakRss = peakRssMiB(sandbox.child.pid);
    memory = memoryMiB(sandbox.child.pid);
    log(`sandbox memory at the end (MiB): ${JSON.stringify(memory)}`);
    await sandbox.stop();
    await baseline.stop();
    await receiver.stop();

    const { cold, baselineCold } = wanted('cold-start')
      ? await coldStarts({ root: ROOT, nodeFlags, log })
      : { cold: undefined, baselineCold: undefined };
    const callbacks = wanted('callbacks')
      ? await callbackScenario(ROOT, quick ? 200 : 2000)
      : { status: 'skipped (--only)' };
    log(`callbacks: ${JSON.stringify(callbacks)}`);
    const hostedPage = wanted('hosted-page')
      ? await hostedPageScenario(ROOT, quick ? 20 : 200)
      : { status: 'skipped (--only)' };
    log(`hosted page: ${hostedPage.status}`);

    if (opts.withPrism) {
      const { merchantToken } = seeded;
      const o = { root: ROOT, connections, merchantToken, runId, log, measure, print };
      await prismScenarios({ ...o, scenarios, servers });
    }

    const baselineRps = applyBaselineRatios(scenarios, baselineBefore, baselineAfter);
    m.loadAverageAtEnd = loadavg().map((x) => +x.toFixed(2));
    const partial: Omit<BenchReport, 'targets'> = {
      quick,
      machine: m,
      settings: { connections, durationSec, warmupSec, invoices, deepPage, nodeFlags },
      seedMs,
      baselineRps,
      scenarios,
      coldStart: cold,
      baselineColdStart: baselineCold,
      peakRssMiB: peakRss,
      memoryMiB: memory,
      callbacks,
      hostedPage,
    };
    const report: BenchReport = { ...partial, targets: checkTargets(partial) };
    console.log('\n' + toConsole(report) + '\n');
    writeResults({ root: ROOT, report, only, log });
    // Speed is never asserted; a scenario the harness could not run at all is a failure (the CI smoke).
    const broken = scenarios.filter((s) => s.status === 'failed' && s.target !== 'prism');
    if (broken.length)
      throw new Error(
        `scenarios that could not run: ${broken.map((s) => `${s.id} (${s.note})`).join('; ')}`,
      );
  } finally {
    for (const s of servers.reverse()) await s.stop().catch(() => undefined);
    killAllChildren();
    rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    console.error(`bench: ${err.stack ?? err.message}`);
    killAllChildren();
    process.exit(1);
  },
);
