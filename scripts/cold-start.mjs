#!/usr/bin/env node
// Cold start, measured like `npm run bench -- --only cold-start` (spawn → first 200 from /healthz, a
// fresh database file, default fixtures) but with the sandbox, the bare Hono baseline and `node -e 0`
// interleaved run by run, so load from other work on the machine hits all three alike.
//
//   node scripts/cold-start.mjs [--runs 15] [--entry dist/src/cli/main.js] [--entry other.js ...]
//
// Prints, per target, the median, min and quartiles of spawn → 200 (for `node -e 0`: spawn → exit),
// and for the sandbox the median of its own "ready in N ms" (start command → listening).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    entry: { type: 'string', multiple: true },
    'no-baseline': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const entries = (values.entry ?? ['dist/src/cli/main.js']).map((e) => resolve(ROOT, e));

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

function probe(url) {
  return new Promise((res) => {
    const req = request(url, { agent: false, timeout: 500 }, (r) => {
      r.resume();
      r.once('end', () => res(r.statusCode ?? 0));
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => res(0));
    req.end();
  });
}

async function once(args, { untilExit = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'paysandbox-cold-'));
  const port = await freePort();
  const argv = args(port, join(dir, 'sandbox.db'));
  const started = performance.now();
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((r) => child.once('exit', r));
  let ms;
  try {
    if (untilExit) {
      await exited;
      ms = performance.now() - started;
    } else {
      for (;;) {
        if ((await probe(`http://127.0.0.1:${port}/healthz`)) === 200) break;
        if (child.exitCode !== null) throw new Error(`exited:\n${out}`);
        if (performance.now() - started > 30_000) throw new Error(`no 200 in 30 s:\n${out}`);
        await new Promise((r) => setTimeout(r, 2));
      }
      ms = performance.now() - started;
      child.kill('SIGINT');
      await exited;
    }
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
  const m = /ready in (\d+) ms/.exec(out);
  return { ms, ready: m ? Number(m[1]) : undefined };
}

const targets = [
  ...entries.map((e) => ({
    name: `sandbox ${e.slice(ROOT.length + 1)}`,
    args: (p, db) => [e, 'start', '--port', String(p), '--db', db, '--quiet'],
  })),
  ...(values['no-baseline']
    ? []
    : [
        { name: 'bare Hono', args: (p) => [join(ROOT, 'bench', 'baseline-server.mjs'), String(p)] },
        { name: 'node -e 0', args: () => ['-e', '0'], untilExit: true },
      ]),
];
const results = new Map(targets.map((t) => [t.name, { ms: [], ready: [] }]));
for (let i = 0; i < runs; i++) {
  for (const t of targets) {
    const r = await once(t.args, { untilExit: t.untilExit });
    results.get(t.name).ms.push(r.ms);
    if (r.ready !== undefined) results.get(t.name).ready.push(r.ready);
  }
}
const q = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * p;
  return s[Math.floor(i)] + (s[Math.ceil(i)] - s[Math.floor(i)]) * (i - Math.floor(i));
};
for (const [name, r] of results) {
  const ready = r.ready.length ? `; "ready in" median ${q(r.ready, 0.5).toFixed(0)} ms` : '';
  console.log(
    `${name.padEnd(40)} median ${q(r.ms, 0.5).toFixed(0)} ms  (min ${q(r.ms, 0).toFixed(0)}, q1 ${q(r.ms, 0.25).toFixed(0)}, q3 ${q(r.ms, 0.75).toFixed(0)}; n=${r.ms.length})${ready}`,
  );
}
