/**
 * The package as npm ships it works (README "CI: the sandbox as a service"): `npm pack`, the tarball
 * installed into an empty directory, `npx paysandbox start --ready-file …`, then
 * `npx paysandbox contract --base-url …` (the `read` cases) against it, on 127.0.0.1.
 *
 * No network: the tarball is unpacked where `npm install <tarball>` puts it, its bin made executable as
 * npm does, and its `dependencies` (vitest among them: `contract` runs it) linked from this checkout's
 * installed node_modules — compiling better-sqlite3 again would take minutes and a prebuilt binary
 * needs GitHub. Only the declared dependencies are linked, so an undeclared import fails here.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, REPO_ROOT } from './built-cli.js';

const work = mkdtempSync(join(tmpdir(), 'paysandbox-packed-'));
const app = join(work, 'app');
const installed = join(app, 'node_modules', 'paysandbox');
let server: ChildProcess | undefined;
let serverOut = '';
let tarball = '';

/** `npx --no-install paysandbox …` in the consumer directory: exit code and output, bounded. */
function npx(
  args: string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) => !k.startsWith('VITEST') && !k.startsWith('CONTRACT_'),
      ),
    );
    const child = spawn('npx', ['--no-install', 'paysandbox', ...args], {
      cwd: app,
      env: { ...clean, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

beforeAll(() => {
  builtCli(); // npm ci builds dist through `prepare`; `npm pack --ignore-scripts` ships it as it is
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    }),
  );
  tarball = join(work, packed[0].filename);
  mkdirSync(join(app, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(join(app, 'package.json'), '{"name": "consumer", "private": true}\n');
  execFileSync('tar', ['xzf', tarball, '-C', join(app, 'node_modules')]);
  renameSync(join(app, 'node_modules', 'package'), installed);
  const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  for (const dep of Object.keys(pkg.dependencies)) {
    const target = join(app, 'node_modules', dep);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(realpathSync(join(REPO_ROOT, 'node_modules', dep)), target);
  }
  const bin = join(installed, pkg.bin.paysandbox);
  chmodSync(bin, 0o755);
  symlinkSync(bin, join(app, 'node_modules', '.bin', 'paysandbox'));
}, 120_000);

/**
 * SIGTERM to the server's process group: npx and the node it started (npx does not pass the signal on).
 * Resolves once the server's port is closed or after a bound.
 */
async function stopServer(): Promise<void> {
  if (!server || server.exitCode !== null || server.pid === undefined) return;
  const gone = new Promise((r) => server!.once('exit', r));
  process.kill(-server.pid, 'SIGTERM');
  await Promise.race([gone, new Promise((r) => setTimeout(r, 10_000))]);
}

afterAll(async () => {
  await stopServer();
  rmSync(work, { recursive: true, force: true });
}, 20_000);

describe('the packed package', () => {
  it('ships the CLI, the document, the fixtures and the contract suite, and none of the local state', () => {
    const listing = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
    for (const f of [
      'package/dist/src/cli/main.js',
      'package/openapi/openapi.yaml',
      'package/fixtures/sandbox.json',
      'package/contract-tests/suite.test.ts',
      'package/README.md',
    ]) {
      expect(listing, f).toContain(f);
    }
    expect(
      listing.filter((f) =>
        /^package\/(node_modules|\.paysandbox|contract-tests\/reports|test-artifacts)\//.test(f),
      ),
    ).toEqual([]);
    // Nor the project's own tests and their support (the contract suite's files stay: they are the product).
    expect(
      listing.filter((f) =>
        /^package\/(src|dist|contract-tests\/meta|examples)\/.*\.test(-support)?\.|^package\/(src|dist\/src)\/testing\//.test(
          f,
        ),
      ),
    ).toEqual([]);
  });

  it(
    'npx paysandbox start --ready-file, then npx paysandbox contract --base-url against it, both from the install',
    async () => {
      const ready = join(work, 'ready');
      server = spawn(
        'npx',
        [
          '--no-install',
          'paysandbox',
          'start',
          '--port',
          '0',
          '--db',
          ':memory:',
          '--quiet',
          '--ready-file',
          ready,
        ],
        { cwd: app, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
      );
      server.stdout!.on('data', (d) => (serverOut += d));
      server.stderr!.on('data', (d) => (serverOut += d));
      const deadline = Date.now() + 30_000;
      while (!existsSync(ready) && Date.now() < deadline && server.exitCode === null)
        await new Promise((r) => setTimeout(r, 100));
      expect(existsSync(ready), serverOut).toBe(true);
      const base = readFileSync(ready, 'utf8');
      expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
      const url = base.trim();
      expect((await fetch(`${url}/healthz`)).status).toBe(200);

      const fixtures = JSON.parse(
        readFileSync(join(installed, 'fixtures', 'sandbox.json'), 'utf8'),
      );
      const reports = join(work, 'reports');
      const run = await npx(
        [
          'contract',
          '--base-url',
          url,
          '--tags',
          'read',
          '--reports',
          reports,
          '--min-interval',
          '0',
        ],
        {
          CONTRACT_API_KEY: fixtures.developers[0].app.api_key,
          CONTRACT_API_SECRET: fixtures.developers[0].app.api_secret,
          CONTRACT_MERCHANT_TOKEN: fixtures.merchants[0].merchant_api_token,
        },
        5 * 60_000,
      );
      expect(run.code, run.out.slice(-3000)).toBe(0);
      expect(run.out).toMatch(/\d+ passed, 0 failed/);
      expect(readFileSync(join(reports, 'junit.xml'), 'utf8')).toMatch(/failures="0"/);

      await stopServer();
      const until = Date.now() + 5000;
      while (existsSync(ready) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(existsSync(ready), 'the ready file is removed on exit').toBe(false);
    },
    6 * 60_000,
  );
});
