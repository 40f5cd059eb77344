/**
 * The preflight: before any case runs against a URL, a wrong base, an unreachable server or a refused
 * credential is one line (PreflightError), and a passing one spends no nonce a run would need. How the
 * commands users type stop at it: preflight-cli.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createControlClient,
  createMerchantClient,
  createDeveloperClient,
} from '../../src/client/index.js';
import { itemAt, required } from '../../src/shared/defined.js';
import { preflight, PreflightError } from '../harness/preflight.js';
import type { Target } from '../harness/target.types.js';
import { createUrlTarget, urlTargetConfigFromEnv } from '../harness/url.target.js';
import { sandboxContractEnv, type ContractEnv } from './preflight.test-support.js';

let target: Target;
let env: ContractEnv;
let html: Server;
let htmlUrl: string;

beforeAll(async () => {
  ({ target, env } = await sandboxContractEnv());
  // A web server that is not the API (a wrong host or port often lands on one).
  html = createServer((_, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>It works</h1>'),
  );
  await new Promise<void>((r) => html.listen(0, '127.0.0.1', r));
  htmlUrl = `http://127.0.0.1:${(html.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await target?.close();
  await new Promise((r) => html?.close(r));
});

async function failure(overrides: Record<string, string>): Promise<string> {
  const err = await preflight({ ...env, ...overrides }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PreflightError);
  const message = (err as Error).message;
  expect(message.split('\n')).toHaveLength(1);
  return message;
}

/** A closed port on 127.0.0.1. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('preflight', () => {
  it('passes with working credentials, and the run starts above the nonce it spent', async () => {
    const { lastNonce, config } = await preflight(env);
    expect(BigInt(lastNonce)).toBeGreaterThan(0n);
    const t = await createUrlTarget({ ...config, minIntervalMs: 0 }, { nonceFloor: lastNonce });
    expect(BigInt(t.signer.nonces.last())).toBeGreaterThanOrEqual(BigInt(lastNonce));
    const dev = createDeveloperClient({ baseUrl: t.info.baseUrl, signer: t.signer });
    expect(
      (await dev.listCryptoAccounts({ currency: 'PBTC' }))['crypto-accounts'].length,
    ).toBeGreaterThan(0);
  });

  it('names the refused credential', async () => {
    expect(await failure({ CONTRACT_MERCHANT_TOKEN: 'not-a-token' })).toBe(
      `CONTRACT_MERCHANT_TOKEN is refused by ${env.CONTRACT_BASE_URL}: GET /v3/invoices/ answered 401 invalid_token (Invalid token.)`,
    );
    expect(await failure({ CONTRACT_API_KEY: 'not-a-key' })).toMatch(
      /^CONTRACT_API_KEY is not known to http:\/\/127\.0\.0\.1:\d+: a signed GET \/v3\/crypto-accounts\/ answered 401 invalid_access_key \(Incorrect access key\)$/,
    );
    expect(await failure({ CONTRACT_API_SECRET: 'not-the-secret' })).toMatch(
      /^CONTRACT_API_SECRET does not match CONTRACT_API_KEY on .*401 invalid_signature/,
    );
  });

  it('checks the second merchant token when one is given', async () => {
    expect(await failure({ CONTRACT_MERCHANT_TOKEN_2: env.CONTRACT_MERCHANT_TOKEN })).toMatch(
      /^CONTRACT_MERCHANT_TOKEN_2 is CONTRACT_MERCHANT_TOKEN: the scoping case needs another merchant/,
    );
    expect(await failure({ CONTRACT_MERCHANT_TOKEN_2: 'nope' })).toMatch(
      /^CONTRACT_MERCHANT_TOKEN_2 is refused by .*: GET \/v3\/invoices\/ answered 401 invalid_token/,
    );
    await preflight({
      ...env,
      CONTRACT_MERCHANT_TOKEN_2: required(target.creds.merchantToken2, 'the second merchant token'),
    });
  });

  it('a sandbox with a control token needs CONTRACT_CONTROL_TOKEN, and the right one', async () => {
    const [{ createSandbox }, { openDatabase }, { listen }] = await Promise.all([
      import('../../src/sandbox.js'),
      import('../../src/db/open.js'),
      import('../../src/server.js'),
    ]);
    const sandbox = createSandbox({
      db: openDatabase(':memory:'),
      config: {
        db: ':memory:',
        host: '127.0.0.1',
        port: 0,
        quiet: true,
        controlToken: 'ct-secret',
      },
    });
    const server = await listen(sandbox);
    try {
      const fx = sandbox.fixtures;
      const guarded = {
        CONTRACT_BASE_URL: server.url,
        CONTRACT_API_KEY: itemAt(fx.developers, 0).app.api_key,
        CONTRACT_API_SECRET: itemAt(fx.developers, 0).app.api_secret,
        CONTRACT_MERCHANT_TOKEN: itemAt(fx.merchants, 0).merchant_api_token,
      };
      expect(await failure({ ...guarded })).toBe(
        `${server.url} is a sandbox with a control token: set CONTRACT_CONTROL_TOKEN to its SANDBOX_CONTROL_TOKEN`,
      );
      expect(await failure({ ...guarded, CONTRACT_CONTROL_TOKEN: 'wrong' })).toMatch(
        /^CONTRACT_CONTROL_TOKEN is refused by .*: GET \/_sandbox\/clock answered 401 control_token_required/,
      );
      await preflight({ ...guarded, CONTRACT_CONTROL_TOKEN: 'ct-secret' });
    } finally {
      await server.stop();
      await sandbox.close();
    }
  });

  it('a key locked to larger nonces is told to set CONTRACT_NONCE_START', async () => {
    const dev = createDeveloperClient({
      baseUrl: env.CONTRACT_BASE_URL,
      apiKey: env.CONTRACT_API_KEY,
      apiSecret: env.CONTRACT_API_SECRET,
      nonceStart: '1.8e+100',
    });
    await dev.listCryptoAccounts({ currency: 'PBTC' });
    expect(await failure({})).toMatch(/401 invalid_nonce .*set CONTRACT_NONCE_START above it/);
    await preflight({ ...env, CONTRACT_NONCE_START: '1.9e+100' });
  });

  it('refuses a URL with a path, an unreachable server and something that is not the API', async () => {
    expect(await failure({ CONTRACT_BASE_URL: `${env.CONTRACT_BASE_URL}/v1/invoices/` })).toBe(
      `the base URL must be scheme, host and port only, got ${env.CONTRACT_BASE_URL}/v1/invoices/ — use ${env.CONTRACT_BASE_URL}`,
    );
    const port = await closedPort();
    expect(await failure({ CONTRACT_BASE_URL: `http://127.0.0.1:${port}` })).toBe(
      `cannot reach http://127.0.0.1:${port}: connection refused — is the server running on that port? (ECONNREFUSED)`,
    );
    expect(await failure({ CONTRACT_BASE_URL: htmlUrl })).toMatch(
      /does not look like the payments API: GET \/v3\/invoices\/ answered 200 text\/html/,
    );
    expect(await failure({ CONTRACT_MERCHANT_TOKEN: '' })).toMatch(/needs CONTRACT_MERCHANT_TOKEN/);
    expect(await failure({ CONTRACT_BASE_URL: 'https://api.example.com' })).toMatch(
      /looks like production/,
    );
  });

  it('on a sandbox, leaves a key that had never been used as it found it (no nonce spent)', async () => {
    const control = createControlClient({ baseUrl: env.CONTRACT_BASE_URL, retry: false });
    const ws = await control.createWorkspace({ ttl_seconds: 60 });
    const nonceOf = async () => {
      const res = await control.request<{
        apps: Array<{ api_key: string; last_nonce: string | null }>;
      }>({
        method: 'GET',
        path: '/_sandbox/apps',
        query: { workspace_id: ws.id },
        operationId: 'listApps',
      });
      return res.body.apps.find((a) => a.api_key === ws.app.api_key)?.last_nonce;
    };
    try {
      expect(await nonceOf()).toBeNull();
      const { lastNonce } = await preflight({
        ...env,
        CONTRACT_API_KEY: ws.app.api_key,
        CONTRACT_API_SECRET: ws.app.api_secret,
      });
      expect(BigInt(lastNonce)).toBeGreaterThan(0n); // the signed read did happen
      expect(await nonceOf()).toBeNull();
      // A key already in use keeps its nonce: only a never-used one is given back unused.
      await preflight({
        ...env,
        CONTRACT_API_KEY: ws.app.api_key,
        CONTRACT_API_SECRET: ws.app.api_secret,
      });
      const dev = createDeveloperClient({
        baseUrl: env.CONTRACT_BASE_URL,
        apiKey: ws.app.api_key,
        apiSecret: ws.app.api_secret,
      });
      await dev.listCryptoAccounts({ currency: 'PBTC' });
      const used = await nonceOf();
      expect(used).not.toBeNull();
      await preflight({
        ...env,
        CONTRACT_API_KEY: ws.app.api_key,
        CONTRACT_API_SECRET: ws.app.api_secret,
      });
      expect(BigInt(String(await nonceOf()))).toBeGreaterThan(BigInt(String(used)));
    } finally {
      await control.deleteWorkspace(ws.id);
    }
  });

  it('merchant reads still work after the preflight (it changes nothing)', async () => {
    const m = createMerchantClient({
      baseUrl: env.CONTRACT_BASE_URL,
      token: env.CONTRACT_MERCHANT_TOKEN,
    });
    expect((await m.listInvoices({ per_page: 1 })).meta.total_count).toBe(0);
  });
});

it('the url target config refuses a base URL with a path before anything else', () => {
  expect(() =>
    urlTargetConfigFromEnv({ ...env, CONTRACT_BASE_URL: 'https://api.example.stage/api/v3' }),
  ).toThrow(/scheme, host and port only.*use https:\/\/api\.example\.stage$/);
  expect(() =>
    urlTargetConfigFromEnv({ ...env, CONTRACT_BASE_URL: 'https://api.example.stage/?x=1' }),
  ).toThrow(/scheme, host and port only/);
  expect(
    urlTargetConfigFromEnv({ ...env, CONTRACT_BASE_URL: 'https://api.example.stage/' }).baseUrl,
  ).toBe('https://api.example.stage');
});
