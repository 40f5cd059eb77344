/**
 * One guard against production for every command that talks to a URL (contract, parity, record,
 * replay) and for the contract suite's url target.
 */
import { isLoopbackHost } from '../shared/ip-address.js';

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
