/**
 * Ctrl-C and SIGTERM on `paysandbox contract --base-url` (docs/contract-tests.md#sharing-a-sandbox): the
 * CLI forwards the signal to vitest, waits for it, the run's workspaces are deleted, nothing of the run
 * keeps running, and the exit code is 130 / 143 — for Ctrl-C (the signal to the whole process group)
 * and for a signal to the CLI alone (what `timeout` or a CI runner's cancel sends).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/open.js';
import { packageRoot } from '../../src/spec/load.js';

let db: Db;
let baseUrl: string;
let env: Record<string, string>;
let stopSandbox: () => Promise<void>;

beforeAll(async () => {
  const [{ createSandbox }, { openDatabase }, { listen }] = await Promise.all([
    import('../../src/sandbox.js'),
    import('../../src/db/open.js'),
    import('../../src/server.js'),
  ]);
  db = openDatabase(':memory:');
  const sandbox = createSandbox({
    db,
    config: { db: ':memory:', host: '127.0.0.1', port: 0, quiet: true },
  });
  const server = await listen(sandbox);
  sandbox.config.publicUrl = server.url;
  sandbox.startBackground();
  baseUrl = server.url;
  const dev = sandbox.fixtures.developers.find((d) => d.app.mfa_whitelisted);
  env = {
    CONTRACT_API_KEY: dev?.app.api_key ?? '',
    CONTRACT_API_SECRET: dev?.app.api_secret ?? '',
    CONTRACT_MERCHANT_TOKEN: sandbox.fixtures.merchants[0]?.merchant_api_token ?? '',
    CONTRACT_MIN_INTERVAL_MS: '0',
  };
  stopSandbox = async () => {
    await server.stop();
    await sandbox.close();
  };
}, 60_000);

afterAll(async () => stopSandbox?.());

const liveWorkspaces = () =>
  (
    db.prepare('SELECT COUNT(*) AS n FROM workspaces WHERE deleted_at IS NULL').get() as {
      n: number;
    }
  ).n;
const allWorkspaces = () =>
  (db.prepare('SELECT COUNT(*) AS n FROM workspaces').get() as { n: number }).n;

/** Processes (of this user) whose environment holds `marker`: the CLI, vitest and its workers. */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(marker))
        found.push(Number(entry));
    } catch {
      // gone, or not ours
    }
  }
  return found;
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

describe('paysandbox contract, interrupted', () => {
  it.each([
    ['Ctrl-C (SIGINT to the process group)', 130, 'SIGINT', true],
    ['SIGINT to the CLI alone', 130, 'SIGINT', false],
    ['SIGTERM to the CLI alone', 143, 'SIGTERM', false],
  ] as const)(
    '%s: the workspaces are deleted, nothing keeps running, exit %i',
    async (_, exitCode, signal, group) => {
      const reports = mkdtempSync(join(tmpdir(), 'contract-interrupt-'));
      const before = allWorkspaces();
      const clean = Object.fromEntries(
        Object.entries(process.env).filter(
          ([k]) => !k.startsWith('VITEST') && !k.startsWith('CONTRACT_'),
        ),
      );
      // Its own process group, as a terminal gives a command: the group is what Ctrl-C signals.
      const cli = spawn(
        process.execPath,
        ['--import', 'tsx', 'src/cli/main.ts', 'contract', '--base-url', baseUrl],
        {
          cwd: packageRoot(),
          env: { ...clean, ...env, CONTRACT_REPORTS_DIR: reports },
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
        },
      );
      let out = '';
      cli.stdout.on('data', (d: Buffer) => (out += d.toString()));
      cli.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<number | null>((r) => cli.on('exit', (code) => r(code)));
      const pid = cli.pid ?? 0;
      try {
        // Cases are running in the run's two workspaces.
        expect(await until(() => liveWorkspaces() === 2 && /\bpass\b/.test(out), 60_000)).toBe(
          true,
        );
        expect(processesWith(reports).length).toBeGreaterThanOrEqual(3); // CLI, vitest, a worker
        process.kill(group ? -pid : pid, signal);
        const code = await Promise.race([
          exited,
          new Promise<'hung'>((r) => setTimeout(() => r('hung'), 30_000)),
        ]);
        expect(code, out).toBe(exitCode);
        expect(allWorkspaces()).toBe(before + 2);
        expect(liveWorkspaces()).toBe(0);
        expect(processesWith(reports)).toEqual([]);
      } finally {
        for (const p of processesWith(reports)) process.kill(p, 'SIGKILL');
        rmSync(reports, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
