import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../spec/load.js';
import { isLoopbackHost } from '../shared/ip-address.js';
import type { CliCommand } from './command.types.js';

/** Credentials a url target needs (docs/contract-tests.md lists the optional ones). */
export const CONTRACT_REQUIRED_ENV = [
  'CONTRACT_API_KEY',
  'CONTRACT_API_SECRET',
  'CONTRACT_MERCHANT_TOKEN',
] as const;

/** Upper bound of one run of the suite (each case is bounded too). */
const RUN_TIMEOUT_MS = 30 * 60_000;

const NON_PRODUCTION_WORDS = ['stage', 'staging', 'sandbox', 'test'];

export { isLoopbackHost };

/**
 * Refuse a base URL that looks like production: anything that is not loopback and whose host does not
 * contain "stage", "staging", "sandbox" or "test" (docs/design.md#contract-test-kit), unless CONTRACT_I_KNOW_THIS_IS_PRODUCTION=1.
 *
 * @example
 * assertNotProduction('https://api.coins.asia.stage.coins.systems', process.env); // fine
 * assertNotProduction('https://api.coins.asia', process.env); // throws
 */
export function assertNotProduction(
  baseUrl: string,
  env: Record<string, string | undefined>,
): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`the base URL is not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`the base URL must be http(s), got ${url.protocol}`);
  const host = url.hostname.toLowerCase();
  if (isLoopbackHost(host) || NON_PRODUCTION_WORDS.some((w) => host.includes(w))) return;
  if (env.CONTRACT_I_KNOW_THIS_IS_PRODUCTION === '1') return;
  throw new Error(
    `Refusing to run the contract suite against ${url.origin}: it looks like production ` +
      '(not localhost, and no "stage", "staging", "sandbox" or "test" in the host). ' +
      'Set CONTRACT_I_KNOW_THIS_IS_PRODUCTION=1 if you really mean it.',
  );
}

/** vitest's CLI from this package's node_modules (a devDependency), or undefined. */
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
--tags takes a vitest tags expression, e.g. "read || write". Exit code 0 when every case passes,
1 when a case fails, 2 when the preflight (URL, credentials) or the usage is wrong.`;

/** `paysandbox contract --base-url URL`: spawn vitest on the suite with the CONTRACT_* environment. */
export const contractCommand: CliCommand = {
  name: 'contract',
  usage: 'contract [--base-url URL]',
  summary: 'run the contract suite against a URL (credentials from CONTRACT_* env)',
  async run(args, env) {
    const { values } = parseArgs({
      args,
      strict: true,
      options: {
        'base-url': { type: 'string' },
        tags: { type: 'string' },
        reports: { type: 'string' },
        'allow-money': { type: 'boolean' },
        'read-only': { type: 'boolean' },
        'min-interval': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    const baseUrl = values['base-url'] ?? env.CONTRACT_BASE_URL;
    if (baseUrl) {
      const missing = CONTRACT_REQUIRED_ENV.filter((n) => !env[n]);
      if (missing.length) {
        console.error(
          `paysandbox contract: set ${missing.join(', ')} for ${baseUrl} (every variable: docs/contract-tests.md)`,
        );
        return 2;
      }
      try {
        assertNotProduction(baseUrl, env);
      } catch (err) {
        console.error(`paysandbox contract: ${(err as Error).message}`);
        return 2;
      }
    }
    const root = packageRoot();
    const bin = vitestBin(root);
    if (!bin) {
      console.error(
        'paysandbox contract: vitest is not installed next to paysandbox (it is a devDependency): npm install --save-dev vitest',
      );
      return 2;
    }
    const childEnv: Record<string, string | undefined> = { ...env };
    if (baseUrl) childEnv.CONTRACT_BASE_URL = baseUrl;
    if (values.reports) childEnv.CONTRACT_REPORTS_DIR = resolve(values.reports);
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
    return new Promise<number>((done) => {
      const child = spawn(process.execPath, argv, { cwd: root, env: childEnv, stdio: 'inherit' });
      const timer = setTimeout(() => child.kill('SIGTERM'), RUN_TIMEOUT_MS);
      child.on('error', (err) => {
        clearTimeout(timer);
        console.error(`paysandbox contract: could not start vitest: ${err.message}`);
        done(2);
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        done(code ?? 1);
      });
    });
  },
};
