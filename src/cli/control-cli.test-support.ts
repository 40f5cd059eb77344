import { createServer, type AddressInfo } from 'node:net';
import type { AppConfig } from '../config.js';
import { liveSandboxes } from '../testing/live-sandbox.test-support.js';
import { runCli } from '../testing/spawn-server.js';

/** Test support (imported by *.test.ts only): the control commands of the CLI against a real sandbox. */

export const TOKEN = 'cli-control-secret';
/** Each CLI run is a child process (about a second, more on a busy machine). */
export const SLOW = 90_000;

/** A port nothing listens on (taken, then given back). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as AddressInfo).port;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/**
 * For the calling test file: a `serve` that starts a real sandbox on its own port (the fixtures as they
 * ship: the first merchant's callbacks go to its inbox), and an `onCleanup` for what a test starts
 * besides; both are closed after each test, the latest first.
 */
export function controlCliSetup() {
  const live = liveSandboxes(TOKEN);
  const serve = async (config: Partial<AppConfig> = {}) => {
    const { sandbox, server, request } = await live.serve(config);
    /** The control API's answer (null for a 204), typed as the caller expects it. */
    const call = async <T = unknown>(method: string, path: string, body?: unknown): Promise<T> =>
      (await request(method, path, body)).body as T;
    /** The id of the invoice that `POST /_sandbox/trigger` made for `event`. */
    const trigger = async (event: string) =>
      (await call<{ invoice: { id: string } }>('POST', '/_sandbox/trigger', { event })).invoice.id;
    const cli = (args: string[], readAfterMs?: number) =>
      runCli([...args, '--url', server.url], {
        env: { SANDBOX_CONTROL_TOKEN: TOKEN },
        readAfterMs,
      });
    return { sandbox, server, call, trigger, cli };
  };
  return { serve, onCleanup: live.onCleanup };
}
