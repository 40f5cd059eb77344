import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { openDatabase } from '../../db/open.js';
import { createSandbox, sharedSpec } from '../../sandbox.js';
import { listen } from '../../server.js';
import { required } from '../../shared/defined.js';
import { parseAmount } from '../../shared/money.js';
import type { WireResponse } from './wire.support.js';

interface Account {
  id: string;
  currency: string;
  balance: string;
}

/** What `POST /_sandbox/workspaces` gives a CI job: its merchant, HMAC application and funded customer. */
export interface Workspace {
  id: string;
  merchant: { id: string; merchant_api_token: string };
  app: {
    api_key: string;
    api_secret: string;
    owner: { id: string; email: string; accounts: Account[] };
  };
  customer: {
    id: string;
    email: string;
    mobile_number: string;
    password: string;
    accounts: Account[];
  };
}

export interface SandboxServer {
  /** The server's base, e.g. `http://127.0.0.1:40123` (no trailing slash). */
  base: string;
  /** A control API call (`/_sandbox/...`), JSON in and out; throws unless it answers 2xx. */
  control<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  /** A fresh workspace, made through the control API as a CI job makes one. */
  workspace(): Promise<Workspace>;
  /** Move the sandbox clock (settles transfers, releases buy orders, expires invoices at once). */
  advance(seconds: number): Promise<void>;
  /** An OAuth2 access token for an application, issued by the control API. */
  bearerToken(apiKey: string): Promise<string>;
  /** A wallet's balance in units (1e-8), read through the control API. */
  balance(accountId: string): Promise<bigint>;
  close(): Promise<void>;
}

/**
 * A real sandbox server on 127.0.0.1: an ephemeral port, its own in-memory database and the background
 * tick running as `paysandbox start` runs it. The public-client emulations use only the credentials of
 * the workspaces made on it, through HTTP like any client.
 */
export async function startSandboxServer(): Promise<SandboxServer> {
  const sandbox = createSandbox({
    db: openDatabase(':memory:'),
    spec: sharedSpec(),
    config: { db: ':memory:', host: '127.0.0.1', port: 0, quiet: true },
  });
  const server = await listen(sandbox);
  sandbox.startBackground();
  const base = `http://127.0.0.1:${server.port}`;

  async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${base}/_sandbox${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`control ${method} ${path} answered ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  return {
    base,
    control,
    async workspace() {
      return (await control<{ workspace: Workspace }>('POST', '/workspaces', { ttl_seconds: 3600 }))
        .workspace;
    },
    async advance(seconds) {
      await control('POST', '/clock/advance', { seconds });
    },
    async bearerToken(apiKey) {
      return (
        await control<{ access_token: string }>('POST', `/apps/${apiKey}/tokens`, {
          scope: 'read write',
        })
      ).access_token;
    },
    async balance(accountId) {
      return parseAmount(
        (await control<{ account: Account }>('GET', `/accounts/${accountId}`)).account.balance,
        { allowZero: true },
      );
    },
    async close() {
      await server.stop();
      await sandbox.close();
    },
  };
}

export const units = (amount: string) => parseAmount(amount, { allowZero: true });

/** The owner's wallet of a currency as the workspace lists it (`PHP` is the peso wallet, `PBTC` on the wire). */
export function walletOf(ws: Workspace, currency: 'PHP' | 'BTC'): string {
  const wallet = ws.app.owner.accounts.find((a) => a.currency === currency);
  return required(wallet, `the workspace owner's ${currency} wallet`).id;
}

/**
 * The answer as the clients take it: they treat `body.errors` as the failure, so a success must have
 * none, and its status is the one the real service gives.
 */
export function expectAccepted(res: WireResponse, status: number): void {
  expect(res.body?.errors, `${res.status} ${res.text}`).toBeUndefined();
  expect(res.status, res.text).toBe(status);
}

/** A refusal as the clients read it: a 4xx whose `body.errors` is an object carrying `message` somewhere. */
export function expectRefused(res: WireResponse, status: number, message: string): void {
  expect(res.status, res.text).toBe(status);
  expect(typeof res.body?.errors).toBe('object');
  expect(Object.values(res.body.errors as Record<string, unknown>).flat()).toContain(message);
}

/**
 * For the calling test file: one sandbox server on 127.0.0.1, started once and closed after the last
 * test, and a fresh workspace before each test (read them as `env.server` and `env.ws`).
 */
export function useWorkspaceServer() {
  let server: SandboxServer | undefined;
  let ws: Workspace | undefined;
  beforeAll(async () => {
    server = await startSandboxServer();
  });
  afterAll(() => server?.close());
  beforeEach(async () => {
    ws = await env.server.workspace();
  });
  const env = {
    get server(): SandboxServer {
      return required(server, 'the sandbox server (started in beforeAll)');
    },
    get ws(): Workspace {
      return required(ws, 'the workspace (made in beforeEach)');
    },
    /** The workspace app's HMAC credentials on this server, as the example-script clients take them. */
    credentials: () => ({
      base: env.server.base,
      key: env.ws.app.api_key,
      secret: env.ws.app.api_secret,
    }),
  };
  return env;
}
