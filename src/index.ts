/**
 * paysandbox as a library: start the sandbox from your own tests, and the TypeScript client.
 *
 * @example
 * import { createSandbox, listen, createMerchantClient } from 'paysandbox';
 * const sandbox = createSandbox({ config: { db: ':memory:', port: 0, quiet: true } });
 * const server = await listen(sandbox);
 * const merchant = createMerchantClient({ baseUrl: server.url, token: sandbox.fixtures.merchants[0]!.merchant_api_token });
 */
export { createSandbox, type Sandbox, type SandboxOptions } from './sandbox.js';
export { listen, type RunningServer } from './server.js';
export type { AppConfig } from './config.js';
export * from './client/index.js';
