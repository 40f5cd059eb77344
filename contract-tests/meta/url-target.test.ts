/**
 * Acceptance: the same suite passes against a sandbox started separately, reached as a plain URL.
 * A `paysandbox start --db :memory:` process is spawned on a free port, then `paysandbox contract
 * --base-url` runs the suite against it with credentials in CONTRACT_* variables only (the fixture
 * file's, as an integrator would copy them from the banner): no in-process shortcut anywhere.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Fixtures } from '../../src/fixtures/fixture-types.js';
import { packageRoot } from '../../src/spec/load.js';
import { allCases, areaOf, caseGroups } from '../cases/index.js';
import type { RunSummary } from '../harness/run.summary.js';
import { reportsDir } from '../harness/run.summary.js';

const root = packageRoot();
const children: ChildProcess[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** A child process of the paysandbox CLI (through tsx), with stdout and stderr kept. */
function cli(args: string[], env: Record<string, string | undefined>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
  return { child, exited, output: () => output };
}

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > until) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The environment minus this vitest run's own variables and any CONTRACT_* the developer has set. */
function cleanEnv(): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('VITEST') && !k.startsWith('CONTRACT_'),
    ),
  );
}

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.pid) c.kill('SIGTERM');
});

describe('the url target', () => {
  it('runs the same suite against a separately started sandbox over plain HTTP, and it passes', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const server = cli(
      ['start', '--db', ':memory:', '--host', '127.0.0.1', '--port', String(port), '--quiet'],
      cleanEnv(),
    );
    try {
      await waitForHealth(`${baseUrl}/healthz`, 30_000);
      const fx = JSON.parse(
        readFileSync(join(root, 'fixtures', 'sandbox.json'), 'utf8'),
      ) as Fixtures;
      const dev = fx.developers.find((d) => d.app.mfa_whitelisted)!;
      const out = join(reportsDir(), 'url-target');
      rmSync(out, { recursive: true, force: true });
      // Live merchants and apps of every tenant: what a run makes in its workspaces goes with them.
      const liveTotals = async () =>
        Promise.all(
          ['merchants', 'apps'].map(
            async (kind) =>
              (
                (await (await fetch(`${baseUrl}/_sandbox/${kind}?per_page=1`)).json()) as {
                  meta: { total_count: number };
                }
              ).meta.total_count,
          ),
        );
      const totalsBefore = await liveTotals();
      const run = cli(
        [
          'contract',
          '--base-url',
          baseUrl,
          '--reports',
          out,
          '--allow-money',
          '--min-interval',
          '0',
        ],
        {
          ...cleanEnv(),
          CONTRACT_API_KEY: dev.app.api_key,
          CONTRACT_API_SECRET: dev.app.api_secret,
          CONTRACT_MERCHANT_TOKEN: fx.merchants[0]!.merchant_api_token,
          CONTRACT_MERCHANT_BEARER_TOKEN: fx.merchants[0]!.bearer_token ?? undefined,
          CONTRACT_MERCHANT_TOKEN_2: fx.merchants[1]!.merchant_api_token,
          CONTRACT_TRANSFER_TARGET: fx.customers[0]!.email,
        },
      );
      const merchantsBefore = await (
        await fetch(`${baseUrl}/_sandbox/merchants?per_page=100`)
      ).json();
      const code = await run.exited;
      const summaryFile = join(out, 'summary.json');
      expect(
        existsSync(summaryFile),
        `no summary written; output:\n${run.output().slice(-4000)}`,
      ).toBe(true);
      const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as RunSummary;
      // The run worked in workspaces of its own (docs/contract-tests.md#sharing-a-sandbox): nothing global
      // changed, and its workspace is gone.
      expect(summary.target).toMatchObject({
        kind: 'url',
        baseUrl,
        hasControl: true,
        credentialSource: 'workspace',
      });
      const get = async (path: string) =>
        fetch(`${baseUrl}${path}`).then(async (r) => ({ status: r.status, body: await r.json() }));
      expect((await get('/_sandbox/clock')).body.offset_seconds).toBe(0);
      expect((await get('/_sandbox/faults')).body.faults).toEqual([]);
      expect(
        (await get('/_sandbox/merchants?per_page=100')).body.merchants.slice(
          0,
          fx.merchants.length,
        ),
      ).toEqual(merchantsBefore.merchants.slice(0, fx.merchants.length));
      expect((await get(`/_sandbox/workspaces/${summary.target.workspaceId}/clock`)).status).toBe(
        404,
      );
      expect(await liveTotals(), 'merchants or apps the run left in the shared base data').toEqual(
        totalsBefore,
      );
      expect(summary.skipped, 'no case may be skipped against a sandbox').toEqual([]);
      expect(
        summary.failedOther,
        `cases failed for reasons other than a 501:\n${run.output().slice(-6000)}`,
      ).toEqual([]);
      expect(code === 0 || summary.failedOn501.length > 0, `exit code ${code}`).toBe(true);
      expect(summary.passed + summary.failedOn501.length).toBe(summary.cases);
      for (const f of ['junit.xml', 'drift.md', 'drift.json'])
        expect(existsSync(join(out, f)), `${f} written`).toBe(true);

      // Progress: one plain line per case as it ran (the output is a pipe here: no ANSI codes).
      const output = run.output();
      expect(output).not.toMatch(/\u001b\[/);
      for (const c of allCases)
        expect(output, c.name).toContain(`  pass  ${areaOf.get(c.name)}  ${c.name}  (`);
      // JUnit: one classname per area, each case under its own name.
      const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
      const testcases = [...junit.matchAll(/<testcase classname="([^"]+)" name="([^"]+)"/g)].map(
        (m) => [m[1], m[2]!.replace(/&amp;/g, '&').replace(/&quot;/g, '"')],
      );
      expect(new Set(testcases.map(([area]) => area))).toEqual(
        new Set(caseGroups.map((g) => g.area)),
      );
      expect(testcases.map(([, name]) => name).sort()).toEqual(allCases.map((c) => c.name).sort());
      for (const [area, name] of testcases) expect(areaOf.get(name!), name).toBe(area);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 300_000);
});
