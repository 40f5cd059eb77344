/**
 * `npm run contract` (contract-tests/npm-run.ts): `--tags EXPR` as `paysandbox contract` takes it, vitest's
 * own `--tags-filter`, an unknown tag refused before anything runs, every other argument passed on.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/spec/load.js';
import { vitestArgs } from '../npm-run.args.js';

describe('npm run contract: its arguments', () => {
  it.each([
    [
      ['--tags', 'read || write'],
      ['--tags-filter', 'read || write'],
    ],
    [['--tags=read && !sandbox'], ['--tags-filter', 'read && !sandbox']],
    [
      ['--tags-filter', 'money'],
      ['--tags-filter', 'money'],
    ],
    [
      ['-t', 'lists invoices', '--tags', 'read', '--reporter=dot'],
      ['-t', 'lists invoices', '--tags-filter', 'read', '--reporter=dot'],
    ],
    [[], []],
  ])('%j goes to vitest as %j', (args, argv) => {
    expect(vitestArgs(args)).toEqual({ argv });
  });

  it.each([
    [['--tags', 'raed'], /^--tags "raed": .*raed.*read, write, money, sandbox/],
    [['--tags-filter', 'read ||'], /^--tags-filter "read \|\|": /],
    [['--tags'], /^--tags needs a value$/],
    [['--tags='], /^--tags needs a value$/],
  ])('%j is refused: %s', (args, line) => {
    const out = vitestArgs(args);
    expect('problem' in out && out.problem).toMatch(line);
  });

  it('an unknown tag exits 2 with one line, before vitest starts', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'contract-tests/npm-run.ts', '--tags', 'read || raed'],
      { cwd: packageRoot(), encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^npm run contract: --tags "read \|\| raed": .*raed/),
    ]);
    expect(run.stdout).toBe('');
  });
});

/** Pids of the processes whose environment holds `marker` (Linux /proc; this user's processes). */
function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(marker))
        pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours
    }
  }
  return pids;
}

/** The environment without what vitest sets for its workers (VITEST*, TEST, NODE_ENV). */
const outsideVitest = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(
    Object.entries(env).filter(([k]) => !/^VITEST/.test(k) && k !== 'TEST' && k !== 'NODE_ENV'),
  );

const commandOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1');
  } catch {
    return '';
  }
};

const until = async (check: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return check();
};

describe('npm run contract, stopped', () => {
  it('SIGTERM to npm alone (what a CI runner cancelling the step sends) stops the whole run: nothing keeps running', async () => {
    const marker = `CONTRACT_NPM_RUN_MARKER=${process.pid}-${Date.now()}`;
    const [name = '', value = ''] = marker.split('=');
    const log = openSync(join(mkdtempSync(join(tmpdir(), 'npm-run-')), 'out.log'), 'w');
    const npm = spawn('npm', ['run', '-s', 'contract', '--', 'contract-tests/suite.test.ts'], {
      cwd: packageRoot(),
      // As a CI step starts it: none of this test's own vitest variables.
      env: { ...outsideVitest(process.env), [name]: value },
      stdio: ['ignore', log, log],
      detached: true,
    });
    try {
      // The suite runs once a worker of vitest is up (each process inherits the environment); a moment
      // later vitest has its own signal handlers (a signal before them would kill it anyway).
      const worker = () =>
        processesWith(marker).some((pid) => commandOf(pid).includes('vitest/dist/workers/'));
      expect(await until(worker, 60_000)).toBe(true);
      await new Promise((r) => setTimeout(r, 3000));
      npm.kill('SIGTERM');
      expect(await until(() => processesWith(marker).length === 0, 30_000)).toBe(true);
    } finally {
      for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
    }
  }, 120_000);
});
