import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { required } from '../../src/shared/defined.js';
import { soakWorker, type SoakContext, type SoakCounters } from '../scenarios/soak-flows.js';
import { signingKey } from './hmac.js';
import { json, memoryMiB, rssMiB } from './net.js';
import { machine, median, type Machine } from './report.js';
import { startSandbox, startScript, type Server } from './servers.js';

export interface SoakOptions {
  root: string;
  seconds: number;
  /** Seconds at the start that do not count: caches fill, V8 sizes its heap, SQLite its page cache. */
  warmupSec: number;
  /** Allowed RSS growth after warm-up: MiB, plus a share of the post-warm-up RSS. */
  toleranceMiB: number;
  tolerancePct: number;
  workers: number;
  nodeFlags: string[];
  durability: string;
  log: (m: string) => void;
}

export interface SoakResult {
  machine: Machine;
  settings: Omit<SoakOptions, 'root' | 'log'>;
  requests: number;
  flows: Record<string, number>;
  errors: number;
  errorSamples: string[];
  /** One RSS sample (MiB) per second of the run, from the first second. */
  rssMiB: number[];
  /** Median of the first 10 samples after warm-up, and of the last 10 samples. */
  rssAfterWarmupMiB: number;
  rssAtEndMiB: number;
  growthMiB: number;
  allowedGrowthMiB: number;
  memoryAtEndMiB: Record<string, number> | null;
  callbacksReceived: number;
  passed: boolean;
  verdict: string;
}

/**
 * `npm run bench -- --soak N`: the built sandbox on a fresh database, `workers` clients running the
 * mixed flows of bench/scenarios/soak-flows.ts back to back for N seconds, callbacks to a local
 * receiver. RSS is read from /proc every second. Fails on any error, or when the RSS at the end
 * (median of the last 10 s) exceeds the RSS after warm-up (median of its first 10 s) by more than
 * the tolerance.
 */
export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const m = machine(o.durability);
  const work = mkdtempSync(join(tmpdir(), 'paysandbox-soak-'));
  const servers: Server[] = [];
  try {
    const receiver = await startScript({
      root: o.root,
      script: 'receiver.mjs',
      nodeFlags: [],
      readyPath: '/count',
    });
    servers.push(receiver);
    const sandbox = await startSandbox({
      root: o.root,
      db: join(work, 'sandbox.db'),
      nodeFlags: o.nodeFlags,
      extraArgs: ['--durability', o.durability],
    });
    servers.push(sandbox);
    o.log(
      `soak: sandbox ${sandbox.url} (pid ${sandbox.child.pid}), ${o.workers} workers, ${o.seconds} s (warm-up ${o.warmupSec} s)`,
    );
    const contexts = await prepare(sandbox.url, `${receiver.url}/callbacks`, o.root, o.workers);

    const counters: SoakCounters = { requests: 0, flows: {}, errors: 0, errorSamples: [] };
    const samples: number[] = [];
    const started = performance.now();
    const sampler = setInterval(() => {
      const rss = rssMiB(sandbox.child.pid) ?? 0;
      samples.push(rss);
      if (samples.length % 10 === 0)
        o.log(
          `soak: ${samples.length} s, RSS ${rss.toFixed(1)} MiB, ${counters.requests} requests, ${counters.errors} errors`,
        );
    }, 1000);
    await Promise.all(
      contexts.map((ctx) => soakWorker(ctx, counters, started + o.seconds * 1000)),
    ).finally(() => clearInterval(sampler));

    const after = samples.slice(o.warmupSec, o.warmupSec + 10);
    const rssAfterWarmupMiB = median(after.length ? after : samples);
    const rssAtEndMiB = median(samples.slice(-10));
    const growthMiB = rssAtEndMiB - rssAfterWarmupMiB;
    const allowedGrowthMiB = o.toleranceMiB + (rssAfterWarmupMiB * o.tolerancePct) / 100;
    const { body } = await json<{ received: number }>('GET', `${receiver.url}/count`);
    const memoryAtEndMiB = memoryMiB(sandbox.child.pid);
    const problems: string[] = [];
    if (counters.errors) problems.push(`${counters.errors} errors`);
    if (growthMiB > allowedGrowthMiB)
      problems.push(
        `RSS grew ${growthMiB.toFixed(1)} MiB after warm-up (allowed ${allowedGrowthMiB.toFixed(1)})`,
      );
    if (samples.length < o.warmupSec + 10)
      problems.push(`only ${samples.length} samples: run longer than the warm-up + 10 s`);
    const { root: _root, log: _log, ...settings } = o;
    return {
      machine: { ...m, loadAverageAtEnd: loadavg().map((x) => +x.toFixed(2)) },
      settings,
      requests: counters.requests,
      flows: counters.flows,
      errors: counters.errors,
      errorSamples: counters.errorSamples,
      rssMiB: samples.map((x) => +x.toFixed(1)),
      rssAfterWarmupMiB,
      rssAtEndMiB,
      growthMiB,
      allowedGrowthMiB,
      memoryAtEndMiB,
      callbacksReceived: body.received,
      passed: problems.length === 0,
      verdict: problems.length
        ? problems.join('; ')
        : `no error; RSS grew ${growthMiB.toFixed(1)} MiB after warm-up (allowed ${allowedGrowthMiB.toFixed(1)})`,
    };
  } finally {
    for (const s of servers.reverse()) await s.stop().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
}

/** One whitelisted, funded app per worker; the first merchant's callbacks go to the local receiver. */
async function prepare(
  base: string,
  callbackUrl: string,
  root: string,
  workers: number,
): Promise<SoakContext[]> {
  const fx = JSON.parse(readFileSync(join(root, 'fixtures', 'sandbox.json'), 'utf8'));
  const merchant = fx.merchants[0];
  const customer = fx.customers[0];
  const expectStatus = (r: { status: number; body: unknown }, status: number, what: string) => {
    if (r.status !== status)
      throw new Error(`${what} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
  };
  expectStatus(
    await json('PATCH', `${base}/_sandbox/merchants/${merchant.id}`, {
      callback_url: callbackUrl,
      callback_auth: 'always',
    }),
    200,
    'PATCH merchant',
  );
  const customerAccount = customer.accounts.find(
    (a: { currency: string }) => a.currency === 'PHP',
  ).id;
  expectStatus(
    await json('POST', `${base}/_sandbox/accounts/${customerAccount}/fund`, { amount: '1000000' }),
    200,
    'fund customer',
  );
  const out: SoakContext[] = [];
  for (let i = 0; i < workers; i++) {
    const r = await json<{
      app: {
        api_key: string;
        api_secret: string;
        owner: { accounts: Array<{ id: string; currency: string }> };
      };
    }>('POST', `${base}/_sandbox/apps`, {
      name: `soak ${i}`,
      mfa_whitelisted: true,
      balance: '10000000',
    });
    expectStatus(r, 201, 'POST /_sandbox/apps');
    out.push({
      baseUrl: base,
      merchantToken: merchant.merchant_api_token,
      key: signingKey(r.body.app.api_key, r.body.app.api_secret),
      account: required(
        r.body.app.owner.accounts.find((a) => a.currency === 'PHP'),
        "the new application owner's PHP wallet",
      ).id,
      customerEmail: customer.email,
      customerAccount,
      outletId: fx.payout_outlets[0].id,
    });
  }
  return out;
}

export function printSoak(r: SoakResult, log: (m: string) => void): void {
  const flows = Object.entries(r.flows)
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ');
  log(
    `soak: ${r.requests} requests in ${r.settings.seconds} s (${(r.requests / r.settings.seconds).toFixed(0)}/s), ${r.errors} errors; flows: ${flows}`,
  );
  log(
    `soak: RSS after warm-up ${r.rssAfterWarmupMiB.toFixed(1)} MiB, at the end ${r.rssAtEndMiB.toFixed(1)} MiB, max ${Math.max(...r.rssMiB).toFixed(1)} MiB; growth ${r.growthMiB.toFixed(1)} MiB (allowed ${r.allowedGrowthMiB.toFixed(1)})`,
  );
  log(
    `soak: callbacks received ${r.callbacksReceived}; memory at the end ${JSON.stringify(r.memoryAtEndMiB)}`,
  );
  for (const e of r.errorSamples) log(`soak: error: ${e}`);
  log(`soak: ${r.passed ? 'PASSED' : 'FAILED'}: ${r.verdict}`);
}

export function writeSoak(root: string, r: SoakResult): string {
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  const file = join(root, 'bench', 'results', 'soak.json');
  writeFileSync(file, JSON.stringify(r, null, 2) + '\n');
  return file;
}
