/**
 * One guard against production for every command that talks to a URL (contract, parity, record,
 * replay) and for the contract suite's url target.
 */
import { isLoopbackHost } from '../shared/ip-address.js';

const NON_PRODUCTION_WORDS = ['stage', 'staging', 'sandbox', 'test'];

export { isLoopbackHost };

/**
 * Whether a host names a non-production environment, by whole words: the host is split into its labels
 * (on `.`) and each label into parts (on `-` and `_`), and one part must be `stage`, `staging`, `sandbox`
 * or `test`, alone or followed by digits (`stage2`, `test01`), or end in `sandbox` (`paysandbox`, the
 * image's service alias). A word inside another word does not count: `api.latest.example`,
 * `contest.example`, `api.teststore.example` and `backstage.example` look like production.
 */
export function isStagingHost(host: string): boolean {
  return host
    .toLowerCase()
    .split(/[.\-_]/)
    .some(
      (part) =>
        part.endsWith('sandbox') ||
        NON_PRODUCTION_WORDS.some((w) => part.startsWith(w) && /^\d*$/.test(part.slice(w.length))),
    );
}

/**
 * Refuse a base URL that looks like production: anything that is not loopback and whose host is not a
 * staging host (`isStagingHost`; docs/contract-tests.md#safety-against-shared-environments), unless
 * CONTRACT_I_KNOW_THIS_IS_PRODUCTION=1.
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
  if (isLoopbackHost(host) || isStagingHost(host)) return;
  if (env.CONTRACT_I_KNOW_THIS_IS_PRODUCTION === '1') return;
  throw new Error(
    `Refusing to run the contract suite against ${url.origin}: it looks like production ` +
      '(not loopback, and no label of the host, or part of one between "-", is "stage", "staging", "sandbox" or "test"). ' +
      'Set CONTRACT_I_KNOW_THIS_IS_PRODUCTION=1 if you really mean it.',
  );
}
