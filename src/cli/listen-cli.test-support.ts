import { afterEach } from 'vitest';
import {
  startMerchantReceiver,
  type ReceiverOptions,
} from '../../examples/merchant-callback/server.js';
import { openDatabase } from '../db/open.js';
import { createSandbox, sharedSpec } from '../sandbox.js';
import { listen } from '../server.js';
import { itemAt } from '../shared/defined.js';
import { spawnCli, type RunningCli } from '../testing/spawn-server.js';

/**
 * Test support (imported by *.test.ts only) for `paysandbox listen` (listen-cli.test.ts,
 * listen-cli-forwarding.e2e.test.ts): a real sandbox and receivers, and the CLI as a child process.
 */

export const TOKEN = 'listen-control-secret';

/** The arguments of `listen` forwarding `server`'s callbacks to `local`, with the control token, then `extra`. */
export const forwardingArgs = (
  server: { url: string },
  local: { url: string },
  ...extra: string[]
): string[] => ['--forward-to', local.url, '--url', server.url, '--control-token', TOKEN, ...extra];

/**
 * For the calling test file: `setup` and `startListen`; what they start is closed after each test, the
 * latest first.
 */
export function listenCliSetup() {
  const cleanups: Array<() => Promise<unknown> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** A real sandbox server with its dispatcher, the merchant's own receiver, and a "local app" receiver. */
  async function setup(respond?: ReceiverOptions['respond']) {
    const sandbox = createSandbox({
      db: openDatabase(':memory:'),
      spec: sharedSpec(),
      config: { db: ':memory:', port: 0, quiet: true, controlToken: TOKEN },
    });
    const merchant = itemAt(sandbox.fixtures.merchants, 0);
    const merchantReceiver = await startMerchantReceiver({
      token: merchant.merchant_api_token,
      port: 0,
      respond,
    });
    const local = await startMerchantReceiver({
      token: merchant.merchant_api_token,
      port: 0,
      path: '/callback',
    });
    sandbox.modules.identities.api.updateMerchant(merchant.id, {
      callback_url: merchantReceiver.url,
    });
    const server = await listen(sandbox);
    sandbox.startBackground();
    cleanups.push(
      () => merchantReceiver.close(),
      () => local.close(),
      () => sandbox.close(),
      () => server.stop(),
    );
    const trigger = (event: string) =>
      fetch(`${server.url}/_sandbox/trigger`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sandbox-token': TOKEN },
        body: JSON.stringify({ event }),
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { invoice: { id: string } },
      }));
    return { sandbox, server, merchant, merchantReceiver, local, trigger };
  }

  function startListen(args: string[]): RunningCli {
    const cli = spawnCli(['listen', ...args], { env: { SANDBOX_CONTROL_TOKEN: '' } });
    cleanups.push(async () => {
      if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
      await cli.exited;
    });
    return cli;
  }

  return { setup, startListen };
}
