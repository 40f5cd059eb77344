import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { runCli } from '../testing/spawn-server.js';

/**
 * Test support for the `paysandbox replay` e2e tests (replay-preflight.e2e.test.ts,
 * replay-money-pacing.e2e.test.ts, replay-reruns-har-forms.e2e.test.ts): fake services on 127.0.0.1
 * whose answers each test writes, HAR 1.2 sessions recorded against a sandbox, and the replay command.
 * Importing it closes the fake services and removes the HAR files once the importing test file is done.
 */

export interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}
export type Answer = { status: number; body: unknown; headers?: Record<string, string> };
export type Handler = (req: Seen, seen: Seen[]) => Answer;

const servers: Server[] = [];

export function fakeService(handler: Handler): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const r: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        at: Date.now(),
      };
      seen.push(r);
      const a = handler(r, seen);
      res
        .writeHead(a.status, { 'content-type': 'application/json', ...a.headers })
        .end(JSON.stringify(a.body));
    });
  });
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }),
    ),
  );
}

/** The time between each request's arrival and the next's. */
export const gaps = (seen: Seen[]) => seen.slice(1).map((r, i) => r.at - (seen[i]?.at ?? r.at));
export const path = (r: Seen) => new URL(r.url, 'http://x').pathname;
export const notFound: Answer = { status: 404, body: { errors: { detail: 'Not found.' } } };

/** The target's own accounts (the preflight's signed read answers them). */
export const TARGET_ACCOUNTS = [
  { id: 'a1'.repeat(16), currency: 'PBTC', balance: '100' }, // the peso wallet, as the service names it
  { id: 'b2'.repeat(16), currency: 'BTC', balance: '0.1' },
];
export const accountsAnswer: Answer = { status: 200, body: { 'crypto-accounts': TARGET_ACCOUNTS } };

export interface RecordedExchange {
  method: string;
  path: string;
  status: number;
  request?: unknown;
  response: unknown;
  auth?: 'hmac' | 'token';
  /** The answer as base64 text with `content.encoding: "base64"` (HAR 1.2, as some tools write). */
  base64?: boolean;
  /** Another origin than the recorded sandbox's (a CDN of a devtools export). */
  origin?: string;
  /** The answer's type, when not JSON (a page, a script). */
  mimeType?: string;
  /** The request as a form given only as `postData.params` (HAR 1.2). */
  params?: Record<string, string>;
}

const dir = mkdtempSync(join(tmpdir(), 'paysandbox-replay-e2e-'));
let harCount = 0;

/** A HAR 1.2 file of these exchanges, recorded against a sandbox (its host, scrubbed credentials). */
export function har(exchanges: RecordedExchange[]): string {
  const file = join(dir, `session${++harCount}.har`);
  const entries = exchanges.map((x) => ({
    startedDateTime: '2026-11-26T10:00:00.000Z',
    time: 5,
    request: {
      method: x.method,
      url: `${x.origin ?? 'http://127.0.0.1:7070'}${x.path}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers:
        x.auth === 'token'
          ? [{ name: 'authorization', value: '<redacted: Token>' }]
          : [
              { name: 'ACCESS_KEY', value: '<redacted>' },
              { name: 'ACCESS_SIGNATURE', value: '<redacted>' },
              { name: 'ACCESS_NONCE', value: '1700000000000001' },
            ],
      queryString: [],
      ...(x.request === undefined
        ? {}
        : { postData: { mimeType: 'application/json', text: JSON.stringify(x.request) } }),
      ...(x.params
        ? {
            postData: {
              mimeType: 'application/x-www-form-urlencoded',
              params: Object.entries(x.params).map(([name, value]) => ({ name, value })),
            },
          }
        : {}),
      headersSize: -1,
      bodySize: -1,
    },
    response: {
      status: x.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'content-type', value: 'application/json' }],
      content: {
        size: -1,
        mimeType: x.mimeType ?? 'application/json',
        ...(x.base64
          ? { text: Buffer.from(JSON.stringify(x.response)).toString('base64'), encoding: 'base64' }
          : { text: JSON.stringify(x.response) }),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 5, receive: 0 },
  }));
  writeFileSync(
    file,
    JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries } }),
  );
  return file;
}

const CREDS = {
  CONTRACT_API_KEY: 'staging-key',
  CONTRACT_API_SECRET: 'staging-secret',
  CONTRACT_MERCHANT_TOKEN: 'staging-token',
  CONTRACT_BEARER_TOKEN: '',
  CONTRACT_ALLOW_MONEY: '',
  CONTRACT_MIN_INTERVAL_MS: '0',
  CONTRACT_TRANSFER_TARGET: '',
  CONTRACT_CUSTOMER_EMAIL: '',
  CONTRACT_CUSTOMER_PHONE: '',
};

export const replay = (
  file: string,
  base: string,
  env: Record<string, string> = {},
  args: string[] = [],
) => runCli(['replay', '--har', file, '--base-url', base, ...args], { env: { ...CREDS, ...env } });

export const ACCOUNTS_READ: RecordedExchange = {
  method: 'GET',
  path: '/v3/crypto-accounts/',
  status: 200,
  response: {
    'crypto-accounts': [
      { id: 'c3'.repeat(16), currency: 'PBTC', balance: '900' },
      { id: 'd4'.repeat(16), currency: 'BTC', balance: '1' },
    ],
  },
};
export const MARKETS_READ: RecordedExchange = {
  method: 'GET',
  path: '/v1/markets',
  status: 200,
  response: { markets: [{ symbol: 'BTC-PHP', product: 'BTC', currency: 'PHP' }] },
};

afterAll(() => {
  for (const s of servers) s.close();
  rmSync(dir, { recursive: true, force: true });
});
