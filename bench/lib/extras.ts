/**
 * The parts of a run beyond the load scenarios: cold start, callback dispatch
 * (bench/scenarios/callbacks.ts), the hosted page (bench/scenarios/hosted-page.ts) and, with
 * --with-prism, Stoplight Prism on the same document.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startChild } from './children.js';
import type { BenchReport, ScenarioResult, Target } from './report.js';
import { coldStart, startPrism, type Server } from './servers.js';
import { peerScenarios, type LoadScenario } from '../scenarios/api.js';

/** Five cold starts of the built sandbox, then five of the bare Hono baseline. */
export async function coldStarts(o: {
  root: string;
  nodeFlags: string[];
  log: (m: string) => void;
}): Promise<{ cold: BenchReport['coldStart']; baselineCold: BenchReport['baselineColdStart'] }> {
  const { root, nodeFlags, log } = o;
  log('cold start × 5 …');
  const cold = await coldStart({ root, nodeFlags, runs: 5 });
  const baselineCold = await coldStart({
    root,
    nodeFlags,
    runs: 5,
    command: (port) => [join(root, 'bench', 'baseline-server.mjs'), String(port)],
  });
  log(
    `cold start: median ${cold.medianMs.toFixed(0)} ms (${cold.runsMs.map((x) => x.toFixed(0)).join(', ')}); bare Hono ${baselineCold.medianMs.toFixed(0)} ms`,
  );
  return { cold, baselineCold };
}

/** bench/scenarios/<name>, or null while that file does not exist. */
function scenarioFile(root: string, name: string): string | null {
  const file = join(root, 'bench', 'scenarios', name);
  return existsSync(file) ? file : null;
}

const notYet = (name: string) => ({
  status: `not available (bench/scenarios/${name} does not exist yet)`,
});

/** bench/scenarios/callbacks.ts (owned by the callbacks work), when it exists. */
export async function callbackScenario(
  root: string,
  events: number,
): Promise<BenchReport['callbacks']> {
  try {
    const file = scenarioFile(root, 'callbacks.ts');
    if (!file) return notYet('callbacks.ts');
    const mod = (await import(pathToFileURL(file).href)) as {
      runCallbackScenario?: (o: {
        events: number;
      }) => Promise<{ deliveriesPerSecond: number; p50Ms: number; p99Ms: number; errors: number }>;
    };
    if (typeof mod.runCallbackScenario !== 'function')
      return { status: 'not available (no runCallbackScenario export)' };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>(
      (_, reject) =>
        (timer = setTimeout(() => reject(new Error('timed out after 180 s')), 180_000)),
    );
    try {
      const r = await Promise.race([mod.runCallbackScenario({ events }), timeout]);
      return { status: 'ok', events, ...r };
    } finally {
      clearTimeout(timer);
    }
  } catch (err) {
    return { status: `failed: ${(err as Error).message.split('\n')[0]}` };
  }
}

/** bench/scenarios/hosted-page.ts (owned by the hosted-page work): a script that prints one JSON line. */
export async function hostedPageScenario(
  root: string,
  renders: number,
): Promise<BenchReport['hostedPage']> {
  const file = scenarioFile(root, 'hosted-page.ts');
  if (!file) return notYet('hosted-page.ts');
  const child = startChild(
    process.execPath,
    ['--import', 'tsx', file, '--renders', String(renders)],
    { cwd: root },
  );
  const timer = setTimeout(() => void child.stop(), 120_000);
  const code = await child.exited;
  clearTimeout(timer);
  const line = child
    .output()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{') && l.includes('"hosted-page"'));
  if (code !== 0 || !line)
    return { status: `failed (exit ${code}): ${child.output().slice(-300).trim()}` };
  return { status: 'ok', results: (JSON.parse(line) as { results: unknown[] }).results };
}

/**
 * `--with-prism`: the peer scenarios against Prism, each result appended to `scenarios` as it finishes;
 * Prism goes into `servers` so that the run's cleanup stops it on errors. A Prism that cannot start is
 * one failed row, not a failed run.
 */
export async function prismScenarios(o: {
  root: string;
  connections: number;
  merchantToken: string;
  runId: string;
  log: (m: string) => void;
  measure: (target: Target, url: string, s: LoadScenario, pid?: number) => Promise<ScenarioResult>;
  print: (r: ScenarioResult) => void;
  scenarios: ScenarioResult[];
  servers: Server[];
}): Promise<void> {
  try {
    const prism = await startPrism({ root: o.root, log: o.log });
    o.servers.push(prism);
    for (const s of peerScenarios({
      baseUrl: prism.url,
      connections: o.connections,
      merchantToken: o.merchantToken,
      runId: o.runId,
    })) {
      const r = await o.measure('prism', prism.url, s, prism.child.pid);
      o.print(r);
      o.scenarios.push(r);
    }
    await prism.stop();
  } catch (err) {
    o.scenarios.push({
      id: 'peer-invoice-create',
      title: 'Prism',
      target: 'prism',
      status: 'failed',
      note: (err as Error).message.split('\n')[0],
    });
  }
}
