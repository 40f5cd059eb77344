#!/usr/bin/env node
/**
 * Proof that contract runs share nothing (docs/contract-tests.md#sharing-a-sandbox): start ONE sandbox,
 * run the contract suite N times at once against it (`paysandbox contract --base-url`, each run in its
 * own workspace), then check that every run passed and that nothing global changed: the sandbox clock,
 * the faults, the fixture merchants' settings, and that every run's workspace is gone.
 *
 *   node scripts/contract-side-by-side.mjs [--runs 4] [--tags "sandbox"] [--timeout 900]
 *
 * Bounded: the whole thing is killed after --timeout seconds. Prints one line per run (exit code,
 * passed/failed/skipped, wall time) and the checks; exit code 0 when all hold.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({
  options: { runs: { type: 'string' }, tags: { type: 'string' }, timeout: { type: 'string' } },
});
const runs = Number(values.runs ?? 4);
const timeoutMs = Number(values.timeout ?? 900) * 1000;
const children = [];
const killAll = () => children.forEach((c) => c.exitCode === null && c.kill('SIGTERM'));
const deadline = setTimeout(() => {
  console.error(`timed out after ${timeoutMs / 1000} s`);
  killAll();
  process.exit(3);
}, timeoutMs);

const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) => !k.startsWith('VITEST') && !k.startsWith('CONTRACT_'),
  ),
);
function cli(args, extraEnv = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: root,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
  return { child, exited, output: () => output };
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = cli([
  'start',
  '--db',
  ':memory:',
  '--host',
  '127.0.0.1',
  '--port',
  String(port),
  '--quiet',
]);
for (let i = 0; ; i++) {
  if (
    await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  if (i > 150) throw new Error('the sandbox did not start');
  await new Promise((r) => setTimeout(r, 200));
}
const get = async (path) => (await fetch(`${base}${path}`)).json();
const fx = JSON.parse(readFileSync(join(root, 'fixtures', 'sandbox.json'), 'utf8'));
const dev = fx.developers.find((d) => d.app.mfa_whitelisted);
const merchantsBefore = JSON.stringify((await get('/_sandbox/merchants?per_page=100')).merchants);

const dir = mkdtempSync(join(tmpdir(), 'contract-side-by-side-'));
const started = performance.now();
const tagArgs = values.tags ? ['--tags', values.tags] : [];
const all = Array.from({ length: runs }, (_, i) => {
  const t0 = performance.now();
  const run = cli(
    [
      'contract',
      '--base-url',
      base,
      '--reports',
      join(dir, `run-${i}`),
      '--allow-money',
      '--min-interval',
      '0',
      ...tagArgs,
    ],
    {
      CONTRACT_API_KEY: dev.app.api_key,
      CONTRACT_API_SECRET: dev.app.api_secret,
      CONTRACT_MERCHANT_TOKEN: fx.merchants[0].merchant_api_token,
      CONTRACT_MERCHANT_TOKEN_2: fx.merchants[1].merchant_api_token,
      CONTRACT_TRANSFER_TARGET: fx.customers[0].email,
    },
  );
  return run.exited.then((code) => ({ i, code, seconds: (performance.now() - t0) / 1000, run }));
});
const results = await Promise.all(all);
const wall = (performance.now() - started) / 1000;

let ok = true;
const check = (cond, what) => {
  console.log(`${cond ? 'ok  ' : 'FAIL'}  ${what}`);
  if (!cond) ok = false;
};
for (const r of results) {
  let s;
  try {
    s = JSON.parse(readFileSync(join(dir, `run-${r.i}`, 'summary.json'), 'utf8'));
  } catch {
    s = undefined;
  }
  console.log(
    `run ${r.i}: exit ${r.code}, ${s ? `${s.passed} passed, ${s.failed} failed, ${s.skipped.length} skipped of ${s.cases}` : 'no summary'}, ${r.seconds.toFixed(1)} s`,
  );
  check(
    r.code === 0 && s?.target?.credentialSource === 'workspace',
    `run ${r.i} passed in its own workspace`,
  );
  if (r.code !== 0) console.log(r.run.output().slice(-3000));
  if (s?.target?.workspaceId) {
    const res = await fetch(`${base}/_sandbox/workspaces/${s.target.workspaceId}/clock`);
    check(res.status === 404, `run ${r.i}'s workspace is deleted`);
  }
}
const clock = await get('/_sandbox/clock');
check(
  clock.offset_seconds === 0,
  `the sandbox clock did not move (offset ${clock.offset_seconds})`,
);
const faults = await get('/_sandbox/faults');
check(faults.faults.length === 0, `no fault left behind (${faults.faults.length})`);
check(
  JSON.stringify(
    (await get('/_sandbox/merchants?per_page=100')).merchants.slice(0, fx.merchants.length),
  ) === JSON.stringify(JSON.parse(merchantsBefore).slice(0, fx.merchants.length)),
  "the fixture merchants' settings are unchanged",
);
console.log(`${runs} runs at once: ${wall.toFixed(1)} s wall`);

clearTimeout(deadline);
server.child.kill('SIGTERM');
await server.exited;
rmSync(dir, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
