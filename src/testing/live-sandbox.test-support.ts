import { afterEach } from 'vitest';
import type { AppConfig } from '../config.js';
import { openDatabase } from '../db/open.js';
import { createSandbox, sharedSpec, type Sandbox } from '../sandbox.js';
import { listen, type RunningServer } from '../server.js';

/** Test support (imported by *.test.ts only): real sandboxes listening on their own ports. */

export interface LiveSandbox {
  sandbox: Sandbox;
  server: RunningServer;
  /** A control API request with the control token: its status and JSON answer (null for a 204). */
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

/**
 * For the calling test file: `serve` starts a real sandbox on its own port with its dispatcher running, on
 * the fixtures as they ship (the first merchant's callbacks go to its inbox) and with `controlToken`
 * required; `onCleanup` takes what a test starts besides. All of it is closed after each test, the
 * latest first.
 */
export function liveSandboxes(controlToken: string) {
  const cleanups: Array<() => Promise<unknown> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  const onCleanup = (c: () => Promise<unknown> | void) => void cleanups.push(c);
  const serve = async (config: Partial<AppConfig> = {}): Promise<LiveSandbox> => {
    const sandbox = createSandbox({
      db: openDatabase(':memory:'),
      spec: sharedSpec(),
      config: { db: ':memory:', port: 0, quiet: true, controlToken, ...config },
    });
    const server = await listen(sandbox);
    sandbox.startBackground();
    cleanups.push(
      () => sandbox.close(),
      () => server.stop(),
    );
    const request = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          'X-Sandbox-Token': controlToken,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: res.status === 204 ? null : await res.json() };
    };
    return { sandbox, server, request };
  };
  return { serve, onCleanup };
}
