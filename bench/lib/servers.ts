import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild, type Child } from './children.js';
import { freePort, probe, waitFor200 } from './net.js';
import { median, type ColdStart } from './report.js';

export interface Server {
  url: string;
  child: Child;
  stop(): Promise<void>;
}

/** The built CLI, as users run it (`npm start`). */
export function cliPath(root: string): string {
  return join(root, 'dist', 'src', 'cli', 'main.js');
}

/** `npm run build` unless `build` is false (--no-build); either way the built CLI must exist. */
export async function ensureBuilt(o: {
  root: string;
  build: boolean;
  log: (m: string) => void;
}): Promise<void> {
  if (o.build) {
    o.log('npm run build …');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const child = startChild(npm, ['run', 'build'], { cwd: o.root });
    const code = await child.exited;
    if (code !== 0) throw new Error(`npm run build failed (${code}):\n${child.output()}`);
  }
  if (!existsSync(cliPath(o.root))) throw new Error('dist/ is missing: run npm run build');
}

/** `node <flags> dist/src/cli/main.js start` on a free port; resolves once `/healthz` answers 200. */
export async function startSandbox(o: {
  root: string;
  db: string;
  nodeFlags: string[];
  extraArgs?: string[];
}): Promise<Server> {
  const port = await freePort();
  const child = startChild(
    process.execPath,
    [
      ...o.nodeFlags,
      cliPath(o.root),
      'start',
      '--port',
      String(port),
      '--db',
      o.db,
      '--quiet',
      ...(o.extraArgs ?? []),
    ],
    {
      cwd: o.root,
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor200(`${url}/healthz`, { gone: () => child.proc.exitCode !== null }).catch(
    (err: Error) => {
      throw new Error(`${err.message}\n${child.output()}`);
    },
  );
  return { url, child, stop: () => child.stop() };
}

/** A plain-JavaScript server of the bench (`bench/*.mjs <port> [args]`), started with the same node flags. */
export async function startScript(o: {
  root: string;
  script: string;
  nodeFlags: string[];
  readyPath: string;
  /** Arguments after the port. */
  args?: string[];
}): Promise<Server> {
  const port = await freePort();
  const child = startChild(
    process.execPath,
    [...o.nodeFlags, join(o.root, 'bench', o.script), String(port), ...(o.args ?? [])],
    { cwd: o.root },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor200(url + o.readyPath, { gone: () => child.proc.exitCode !== null }).catch(
    (err: Error) => {
      throw new Error(`${err.message}\n${child.output()}`);
    },
  );
  return { url, child, stop: () => child.stop() };
}

/**
 * Cold start: spawn → first 200 from /healthz, `runs` times, each on a fresh database file with the
 * default fixtures (so the fixtures are loaded every time, as on a first `npm start`).
 */
export async function coldStart(o: {
  root: string;
  nodeFlags: string[];
  runs: number;
  command?: (port: number, db: string) => string[];
}): Promise<ColdStart> {
  const runsMs: number[] = [];
  const bannerMs: number[] = [];
  for (let i = 0; i < o.runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'paysandbox-cold-'));
    try {
      const port = await freePort();
      const db = join(dir, 'sandbox.db');
      const args = o.command
        ? o.command(port, db)
        : [cliPath(o.root), 'start', '--port', String(port), '--db', db];
      const started = performance.now();
      const child = startChild(process.execPath, [...o.nodeFlags, ...args], {
        cwd: o.root,
        env: { ...process.env, NODE_ENV: 'production' },
      });
      const url = `http://127.0.0.1:${port}/healthz`;
      const deadline = started + 30_000;
      for (;;) {
        if ((await probe(url, 500)) === 200) break;
        if (child.proc.exitCode !== null)
          throw new Error(`cold start: the process exited\n${child.output()}`);
        if (performance.now() > deadline)
          throw new Error(`cold start: no 200 within 30 s\n${child.output()}`);
        await new Promise((r) => setTimeout(r, 2));
      }
      runsMs.push(performance.now() - started);
      const m = /ready in (\d+) ms/.exec(child.output());
      if (m) bannerMs.push(Number(m[1]));
      await child.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { runsMs, medianMs: median(runsMs), bannerMs };
}

/**
 * Stoplight Prism mocking openapi/openapi.yaml. Installed on demand (never a dependency of the
 * project) into a cache directory under the system temp dir, so a second run does not download again.
 */
export async function startPrism(o: { root: string; log: (m: string) => void }): Promise<Server> {
  const dir = join(tmpdir(), 'paysandbox-bench-prism');
  const bin = join(dir, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  if (!existsSync(bin)) {
    o.log(`installing @stoplight/prism-cli into ${dir} (only for --with-prism) …`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const install = startChild(
      npm,
      ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', '@stoplight/prism-cli'],
      { cwd: tmpdir() },
    );
    const timer = setTimeout(() => void install.stop(), 300_000);
    const code = await install.exited;
    clearTimeout(timer);
    if (code !== 0 || !existsSync(bin))
      throw new Error(
        `npm install @stoplight/prism-cli failed (${code}):\n${install.output().slice(-2000)}`,
      );
  }
  const port = await freePort();
  const child = startChild(
    process.execPath,
    [bin, 'mock', '-h', '127.0.0.1', '-p', String(port), join(o.root, 'openapi', 'openapi.yaml')],
    { cwd: o.root },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor200(`${url}/healthz`, {
    timeoutMs: 60_000,
    gone: () => child.proc.exitCode !== null,
  }).catch((err: Error) => {
    throw new Error(`${err.message}\n${child.output().slice(-2000)}`);
  });
  return { url, child, stop: () => child.stop() };
}
