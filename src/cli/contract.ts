import { trimEnd } from '../shared/trim.js';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../spec/load.js';
import type { CliCommand } from './command.types.js';
import { clearReports, contractReportsDir, writeStoppedJunit } from './contract.reports.js';
import { runSuite } from './contract.run-suite.js';
import { tagsExpressionProblem } from './contract.tags.js';
import { releaseLedgerWorkspaces } from './contract.workspaces.js';
import { assertNotProduction } from './production-guard.js';

/** Credentials a url target needs (docs/contract-tests.md lists the optional ones). */
export const CONTRACT_REQUIRED_ENV = [
  'CONTRACT_API_KEY',
  'CONTRACT_API_SECRET',
  'CONTRACT_MERCHANT_TOKEN',
] as const;

/** vitest's CLI as this package resolves it (a dependency of paysandbox), or undefined. */
export function vitestBin(root = packageRoot()): string | undefined {
  try {
    const pkg = createRequire(join(root, 'package.json')).resolve('vitest/package.json');
    return join(dirname(pkg), 'vitest.mjs');
  } catch {
    return undefined;
  }
}

const USAGE = `paysandbox contract [--base-url URL] [--tags EXPR] [--reports DIR] [--allow-money] [--read-only] [--min-interval MS]

Runs the contract suite (contract-tests/) against URL, or against a sandbox started in-process when no
URL is given. Credentials come from the environment: CONTRACT_API_KEY, CONTRACT_API_SECRET,
CONTRACT_MERCHANT_TOKEN, optional CONTRACT_MERCHANT_TOKEN_2 (see docs/contract-tests.md).
--tags takes a vitest tags expression of the suite's tags (read, write, money, sandbox), e.g.
"read || write"; an unknown tag is a usage error. Reports (junit.xml, summary.json, drift.md,
drift.json) go to --reports DIR (or --reports-dir DIR, CONTRACT_REPORTS_DIR), by default
./contract-tests/reports of the working directory; each run first removes the previous ones.
Exit code 0 when every case passes, 1 when a case fails, 2 when the preflight (URL, credentials) or the
usage is wrong, 130 / 143 on SIGINT / SIGTERM.`;

const OPTIONS = {
  'base-url': { type: 'string' },
  tags: { type: 'string' },
  reports: { type: 'string' },
  'reports-dir': { type: 'string' },
  'allow-money': { type: 'boolean' },
  'read-only': { type: 'boolean' },
  'min-interval': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Lenient: what can be read of arguments the strict parse refused (where the reports go). */
function looseContractArgs(args: string[]): Record<string, unknown> {
  return parseArgs({ args, strict: false, allowPositionals: true, options: OPTIONS }).values;
}

const stringFlag = (v: unknown) => (typeof v === 'string' ? v : undefined);
const reportsFlag = (values: Record<string, unknown>) =>
  stringFlag(values.reports) ?? stringFlag(values['reports-dir']);

/**
 * A run that stops before any case: the reports of an earlier run are removed, and junit.xml is one
 * failing case with the line (so a CI step publishing it `if: always()` shows why, never an old file).
 */
function stopReports(dir: string, baseUrl: string | undefined, line: string): void {
  try {
    clearReports(dir);
    writeStoppedJunit(dir, baseUrl, line);
  } catch (err) {
    console.error(`paysandbox contract: could not write ${dir}: ${(err as Error).message}`);
  }
}

/** `paysandbox contract --base-url URL`: spawn vitest on the suite with the CONTRACT_* environment. */
export const contractCommand: CliCommand = {
  name: 'contract',
  usage: 'contract [--base-url URL]',
  summary: 'run the contract suite against a URL (credentials from CONTRACT_* env)',
  async run(args, env) {
    let values;
    try {
      values = parseArgs({ args, strict: true, options: OPTIONS }).values;
    } catch (err) {
      // Bad usage (an unknown flag, a missing value): the reports still say so, where a lenient read
      // of the arguments says they go. main() prints the line and exits 2.
      const loose = looseContractArgs(args);
      stopReports(
        contractReportsDir(reportsFlag(loose), env),
        stringFlag(loose['base-url']) ?? env.CONTRACT_BASE_URL,
        `paysandbox contract: ${(err as Error).message.split('\n')[0]}`,
      );
      throw err;
    }
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    const baseUrl = values['base-url'] ?? env.CONTRACT_BASE_URL;
    const reports = contractReportsDir(reportsFlag(values), env);
    /** One line on stderr, the same line as the one failing case of junit.xml, exit code 2. */
    const stop = (line: string) => {
      stopReports(reports, baseUrl, line);
      console.error(line);
      return 2;
    };
    // Usage first, before anything runs (vitest would find an unknown tag only once the run began).
    const tagsProblem = values.tags ? tagsExpressionProblem(values.tags) : undefined;
    if (tagsProblem) return stop(`paysandbox contract: --tags "${values.tags}": ${tagsProblem}`);
    if (baseUrl) {
      const missing = CONTRACT_REQUIRED_ENV.filter((n) => !env[n]);
      if (missing.length)
        return stop(
          `paysandbox contract: set ${missing.join(', ')} for ${baseUrl} (every variable: docs/contract-tests.md)`,
        );
      try {
        assertNotProduction(baseUrl, env);
      } catch (err) {
        return stop(`paysandbox contract: ${(err as Error).message}`);
      }
    }
    const root = packageRoot();
    const bin = vitestBin(root);
    if (!bin)
      return stop(
        'paysandbox contract: vitest is not installed next to paysandbox (a dependency of it): reinstall paysandbox, or npm install vitest',
      );
    const childEnv: Record<string, string | undefined> = { ...env };
    if (baseUrl) childEnv.CONTRACT_BASE_URL = baseUrl;
    childEnv.CONTRACT_REPORTS_DIR = reports;
    if (values['allow-money']) childEnv.CONTRACT_ALLOW_MONEY = '1';
    if (values['read-only']) childEnv.CONTRACT_READ_ONLY = '1';
    if (values['min-interval'] !== undefined)
      childEnv.CONTRACT_MIN_INTERVAL_MS = values['min-interval'];
    const argv = [
      bin,
      'run',
      '--config',
      join(root, 'contract-tests', 'vitest.config.ts'),
      'contract-tests/suite.test.ts',
    ];
    if (values.tags) argv.push('--tags-filter', values.tags);
    // The suite lists the workspaces it holds on a sandbox behind the URL here, until it has deleted them.
    const ledgerDir = mkdtempSync(join(tmpdir(), 'paysandbox-contract-'));
    const ledger = join(ledgerDir, 'workspaces.json');
    childEnv.CONTRACT_WORKSPACE_LEDGER = ledger;
    try {
      const code = await runSuite(argv, root, childEnv);
      if (typeof code === 'string') return stop(code);
      if (baseUrl && existsSync(ledger)) {
        const { deleted, failed } = await releaseLedgerWorkspaces(
          ledger,
          trimEnd(baseUrl, '/'),
          env.CONTRACT_CONTROL_TOKEN || undefined,
        );
        if (deleted.length)
          console.error(`paysandbox contract: deleted the run's workspaces ${deleted.join(', ')}`);
        if (failed.length)
          console.error(
            `paysandbox contract: could not delete the run's workspaces ${failed.join(', ')}; their TTL will end them`,
          );
      }
      return code;
    } finally {
      rmSync(ledgerDir, { recursive: true, force: true });
    }
  },
};
