/**
 * The ways users run the contract suite stop at the preflight, or before it, with one line and exit
 * code 2, leaving only a one-case junit.xml where the reports go (`npm run contract`,
 * `paysandbox contract`, from the package or from another directory).
 */
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/spec/load.js';
import type { Target } from '../harness/target.types.js';
import { run, sandboxContractEnv, type ContractEnv } from './preflight.test-support.js';

let target: Target;
let env: ContractEnv;

beforeAll(async () => {
  ({ target, env } = await sandboxContractEnv());
}, 60_000);

afterAll(async () => {
  await target?.close();
});

describe('the ways users run it stop at the preflight with one line and exit code 2', () => {
  const expected = (base: string) =>
    `contract preflight failed: CONTRACT_API_KEY is not known to ${base}: a signed GET /v3/crypto-accounts/ answered 401 invalid_access_key (Incorrect access key)`;

  it('npm run contract (vitest with the contract config) with CONTRACT_* variables', async () => {
    const { code, out } = await run(
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        '--config',
        'contract-tests/vitest.config.ts',
        'contract-tests/suite.test.ts',
      ],
      { ...env, CONTRACT_API_KEY: 'wrong-key' },
    );
    expect(out.trim()).toBe(expected(env.CONTRACT_BASE_URL));
    expect(code).toBe(2);
  }, 70_000);

  it('paysandbox contract --base-url, leaving a junit.xml of one failing case with that line (an older one gone)', async () => {
    const { CONTRACT_BASE_URL: base, ...creds } = env;
    const reports = mkdtempSync(join(tmpdir(), 'contract-reports-'));
    writeFileSync(join(reports, 'junit.xml'), '<testsuites tests="99" failures="0"/>');
    writeFileSync(join(reports, 'summary.json'), '{"stale": true}');
    const { code, out } = await run(
      ['--import', 'tsx', 'src/cli/main.ts', 'contract', '--base-url', base, '--reports', reports],
      { ...creds, CONTRACT_API_KEY: 'wrong-key' },
    );
    expect(out.trim()).toBe(expected(base));
    expect(code).toBe(2);
    const junit = readFileSync(join(reports, 'junit.xml'), 'utf8');
    expect(junit).toContain('tests="1" failures="1"');
    expect(junit.match(/<testcase /g)).toHaveLength(1);
    expect(junit).toContain(
      `<failure message="${expected(base).replace(/&/g, '&amp;').replace(/"/g, '&quot;')}" type="PreflightFailure">`,
    );
    expect(existsSync(join(reports, 'summary.json'))).toBe(false);
    rmSync(reports, { recursive: true, force: true });
  }, 70_000);

  it('paysandbox contract without a credential says which, in one line', async () => {
    const { code, out } = await run(
      ['--import', 'tsx', 'src/cli/main.ts', 'contract', '--base-url', env.CONTRACT_BASE_URL],
      { CONTRACT_API_KEY: 'k', CONTRACT_MERCHANT_TOKEN: 't' },
    );
    expect(out.trim().split('\n')).toEqual([
      `paysandbox contract: set CONTRACT_API_SECRET for ${env.CONTRACT_BASE_URL} (every variable: docs/contract-tests.md)`,
    ]);
    expect(code).toBe(2);
  }, 70_000);
});

describe('every way `paysandbox contract` stops before any case leaves only its own junit.xml', () => {
  const stale = {
    'junit.xml': '<testsuites tests="99" failures="0"/>',
    'summary.json': '{"stale": true}',
    'drift.md': 'stale',
    'drift.json': '{}',
  };
  const xmlAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

  it.each([
    [
      'a missing credential',
      [],
      { CONTRACT_API_KEY: '' },
      /^paysandbox contract: set CONTRACT_API_KEY for /,
    ],
    [
      'a production-looking host',
      ['--base-url', 'https://api.example.com'],
      {},
      /^paysandbox contract: Refusing to run the contract suite against https:\/\/api\.example\.com: it looks like production/,
    ],
    ['an unknown flag', ['--bogus'], {}, /^paysandbox contract: Unknown option '--bogus'/],
    [
      'an unknown tag',
      ['--tags', 'raed'],
      {},
      /^paysandbox contract: --tags "raed": unknown tag "raed"; the suite's tags are read, write, money, sandbox$/,
    ],
    [
      'a tags expression that does not parse',
      ['--tags', 'read ||'],
      {},
      /^paysandbox contract: --tags "read \|\|": expected a tag but found the end$/,
    ],
  ] as const)(
    '%s: exit 2, the old reports gone, one failing case with the line',
    async (_, extraArgs, extraEnv, line) => {
      const reports = mkdtempSync(join(tmpdir(), 'contract-reports-'));
      for (const [name, body] of Object.entries(stale)) writeFileSync(join(reports, name), body);
      const { CONTRACT_BASE_URL: base, ...creds } = env;
      const args = ['--base-url', base, '--reports', reports, ...extraArgs];
      const { code, out } = await run(['--import', 'tsx', 'src/cli/main.ts', 'contract', ...args], {
        ...creds,
        ...extraEnv,
      });
      expect(code).toBe(2);
      const printed = out.trim().split('\n');
      expect(printed).toHaveLength(1);
      expect(printed[0]).toMatch(line);
      expect(readdirSync(reports)).toEqual(['junit.xml']);
      const junit = readFileSync(join(reports, 'junit.xml'), 'utf8');
      expect(junit).toContain('tests="1" failures="1"');
      expect(junit.match(/<testcase /g)).toHaveLength(1);
      // The junit line is the printed one, without main()'s "(paysandbox contract --help)" hint.
      const reason = (printed[0] ?? '').replace(/ \(paysandbox contract --help\)$/, '');
      expect(junit).toContain(`<failure message="${xmlAttr(reason)}" type="PreflightFailure">`);
      rmSync(reports, { recursive: true, force: true });
    },
    70_000,
  );
});

describe('`paysandbox contract --tags` with an unknown tag', () => {
  it('stops before the sandbox sees any request (no preflight, no workspace)', async () => {
    const { CONTRACT_BASE_URL: base, ...creds } = env;
    // The request log lists the API requests (the preflight's and the suite's), newest first.
    const log = async () =>
      (
        (await (await fetch(`${base}/_sandbox/requests?per_page=20`)).json()) as {
          requests: unknown[];
        }
      ).requests;
    const before = await log();
    expect(before.length).toBeGreaterThan(0);
    const reports = mkdtempSync(join(tmpdir(), 'contract-reports-'));
    const { code } = await run(
      [
        '--import',
        'tsx',
        'src/cli/main.ts',
        'contract',
        '--base-url',
        base,
        '--tags',
        'read && wirte',
        '--reports',
        reports,
      ],
      creds,
    );
    expect(code).toBe(2);
    expect(await log()).toEqual(before);
    rmSync(reports, { recursive: true, force: true });
  }, 70_000);
});

describe('`paysandbox contract` run from another directory (an installed package)', () => {
  it.each([
    ['./contract-tests/reports by default', [], join('contract-tests', 'reports')],
    ['--reports-dir DIR, relative to it', ['--reports-dir', 'out/ct'], join('out', 'ct')],
  ] as const)(
    'writes its reports into the working directory: %s, never into the package',
    async (_, extraArgs, where) => {
      const project = mkdtempSync(join(tmpdir(), 'contract-project-'));
      const own = join(packageRoot(), 'contract-tests', 'reports', 'junit.xml');
      const ownBefore = existsSync(own) ? statSync(own).mtimeMs : undefined;
      const { CONTRACT_BASE_URL: base, ...creds } = env;
      // The CLI of this package, from a project directory that has no contract-tests/ of its own.
      const cli = join(packageRoot(), 'src', 'cli', 'main.ts');
      const { code, out } = await run(
        ['--import', import.meta.resolve('tsx'), cli, 'contract', '--base-url', base, ...extraArgs],
        { ...creds, CONTRACT_API_KEY: 'wrong-key' },
        project,
      );
      expect(out).toMatch(/contract preflight failed: CONTRACT_API_KEY is not known/);
      expect(code).toBe(2);
      // Written by the suite's global setup in vitest (the package root is its cwd).
      expect(readFileSync(join(project, where, 'junit.xml'), 'utf8')).toContain(
        'type="PreflightFailure"',
      );
      expect(existsSync(own) ? statSync(own).mtimeMs : undefined).toBe(ownBefore);
      rmSync(project, { recursive: true, force: true });
    },
    70_000,
  );
});
