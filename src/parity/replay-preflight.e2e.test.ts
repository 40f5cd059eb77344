import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/spawn-server.js';

/**
 * `paysandbox replay` keeps the contract suite's preflight and safety rules (docs/parity.md, "Replay"),
 * against fake services on 127.0.0.1 whose answers each test writes.
 */

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}
type Answer = { status: number; body: unknown; headers?: Record<string, string> };
type Handler = (req: Seen, seen: Seen[]) => Answer;

const servers: Server[] = [];

function fakeService(handler: Handler): Promise<{ url: string; seen: Seen[] }> {
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
const gaps = (seen: Seen[]) => seen.slice(1).map((r, i) => r.at - (seen[i]?.at ?? r.at));
const path = (r: Seen) => new URL(r.url, 'http://x').pathname;
const notFound: Answer = { status: 404, body: { errors: { detail: 'Not found.' } } };

/** The target's own accounts (the preflight's signed read answers them). */
const TARGET_ACCOUNTS = [
  { id: 'a1'.repeat(16), currency: 'PBTC', balance: '100' }, // the peso wallet, as the service names it
  { id: 'b2'.repeat(16), currency: 'BTC', balance: '0.1' },
];
const accountsAnswer: Answer = { status: 200, body: { 'crypto-accounts': TARGET_ACCOUNTS } };

interface RecordedExchange {
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

const dir = mkdtempSync(join(tmpdir(), 'paysandbox-replay-preflight-'));
let harCount = 0;

/** A HAR 1.2 file of these exchanges, recorded against a sandbox (its host, scrubbed credentials). */
function har(exchanges: RecordedExchange[]): string {
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

const replay = (
  file: string,
  base: string,
  env: Record<string, string> = {},
  args: string[] = [],
) => runCli(['replay', '--har', file, '--base-url', base, ...args], { env: { ...CREDS, ...env } });

const ACCOUNTS_READ: RecordedExchange = {
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
const MARKETS_READ: RecordedExchange = {
  method: 'GET',
  path: '/v1/markets',
  status: 200,
  response: { markets: [{ symbol: 'BTC-PHP', product: 'BTC', currency: 'PHP' }] },
};

afterAll(() => {
  for (const s of servers) s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('replay preflight: one line and exit 2 before any entry is replayed', () => {
  it('refuses a base URL with a path and names the base to use, sending nothing', async () => {
    const svc = await fakeService(() => accountsAnswer);
    const file = har([ACCOUNTS_READ, ACCOUNTS_READ]);
    const { code, out } = await replay(file, `${svc.url}/v3/invoices/`);
    expect(out.trim()).toBe(
      `paysandbox replay: preflight failed: the base URL must be scheme, host and port only, got ${svc.url}/v3/invoices/ — use ${svc.url}`,
    );
    expect(code).toBe(2);
    expect(svc.seen).toHaveLength(0);
  });

  it('refuses a host that does not answer once, not with one "fetch failed" per entry', async () => {
    const closed = createServer();
    const port = await new Promise<number>((resolve) =>
      closed.listen(0, '127.0.0.1', () => resolve((closed.address() as AddressInfo).port)),
    );
    await new Promise((r) => closed.close(r));
    const file = har([ACCOUNTS_READ, ACCOUNTS_READ, ACCOUNTS_READ]);
    const { code, out } = await replay(file, `http://127.0.0.1:${port}`);
    expect(out.trim()).toBe(
      `paysandbox replay: preflight failed: cannot reach http://127.0.0.1:${port}: connection refused — is the server running on that port? (ECONNREFUSED)`,
    );
    expect(code).toBe(2);
  });

  it('refuses HMAC credentials the target refuses once, not as N differences', async () => {
    const svc = await fakeService(() => ({
      status: 401,
      body: {
        errors: { detail: 'Incorrect access key' },
        error_codes: ['invalid_access_key'],
      },
    }));
    const file = har([ACCOUNTS_READ, ACCOUNTS_READ, ACCOUNTS_READ]);
    const { code, out } = await replay(file, svc.url);
    expect(out.trim()).toBe(
      `paysandbox replay: preflight failed: CONTRACT_API_KEY is not known to ${svc.url}: a signed GET /v3/crypto-accounts/ answered 401 invalid_access_key (Incorrect access key)`,
    );
    expect(code).toBe(2);
    expect(svc.seen).toHaveLength(1); // the preflight's read, no entry
  });

  it('refuses a merchant token the target refuses, with the contract suite’s line', async () => {
    const svc = await fakeService((r) =>
      r.headers.authorization === 'Token staging-token'
        ? {
            status: 401,
            body: { errors: { detail: 'Invalid token.' }, error_codes: ['invalid_token'] },
          }
        : accountsAnswer,
    );
    const file = har([{ ...MARKETS_READ, path: '/v3/invoices/', auth: 'token' }]);
    const { code, out } = await replay(file, svc.url);
    expect(out.trim()).toBe(
      `paysandbox replay: preflight failed: CONTRACT_MERCHANT_TOKEN is refused by ${svc.url}: GET /v3/invoices/ answered 401 invalid_token (Invalid token.)`,
    );
    expect(code).toBe(2);
  });
});

const TRANSFER_ID = 'e5'.repeat(16);
const TRANSFER = {
  id: TRANSFER_ID,
  account: 'c3'.repeat(16),
  amount: '5',
  status: 'success',
};
const MONEY_SESSION: RecordedExchange[] = [
  ACCOUNTS_READ,
  {
    method: 'POST',
    path: '/v3/transfers/',
    status: 201,
    request: {
      account: 'c3'.repeat(16),
      target_address: 'ws-01a2@customer.example.ph',
      amount: '5',
    },
    response: { transfer: TRANSFER },
  },
  {
    method: 'GET',
    path: `/v3/transfers/${TRANSFER_ID}`,
    status: 200,
    response: { transfer: TRANSFER },
  },
];

/** A staging that knows only its own accounts and customer, and answers transfers. */
function stagingWithTransfers(email = 'juan@staging.example'): Handler {
  const made = new Map<string, unknown>();
  return (r) => {
    const p = path(r);
    if (p === '/v3/crypto-accounts/') return accountsAnswer;
    if (r.method === 'POST' && p === '/v3/transfers/') {
      const body = JSON.parse(r.body) as { account: string; target_address: string };
      if (!TARGET_ACCOUNTS.some((a) => a.id === body.account))
        return {
          status: 400,
          body: { errors: { account: [`Account "${body.account}" is not one of your accounts.`] } },
        };
      if (body.target_address !== email)
        return { status: 400, body: { errors: { target_address: ['No account matches.'] } } };
      const id = `f${made.size}`.padEnd(32, '6');
      const transfer = { ...TRANSFER, id, account: body.account };
      made.set(id, transfer);
      return { status: 201, body: { transfer } };
    }
    const got = /^\/v3\/transfers\/(\w+)$/.exec(p)?.[1];
    if (got && made.has(got)) return { status: 200, body: { transfer: made.get(got) } };
    return notFound;
  };
}

describe('replay: money only with the contract suite’s opt-in', () => {
  it('skips an entry that moves money, and the one that reads what it made, saying why', async () => {
    const svc = await fakeService(stagingWithTransfers());
    const { code, out } = await replay(har(MONEY_SESSION), svc.url, {}, ['--json']);
    const { results } = JSON.parse(out) as {
      results: Array<{ key: string; status: string; note?: string }>;
    };
    expect(results.map((r) => r.status)).toEqual(['match', 'skipped', 'skipped']);
    expect(results[1]?.note).toBe(
      'createTransfer moves money: set CONTRACT_ALLOW_MONEY=1 to run it (or --allow-money)',
    );
    expect(results[2]?.note).toMatch(
      new RegExp(
        `^names ${TRANSFER_ID}, made by POST /v3/transfers/, which was skipped: moves money`,
      ),
    );
    expect(svc.seen.filter((r) => path(r).startsWith('/v3/transfers'))).toHaveLength(0);
    expect(code).toBe(0);
  });

  it('sends it with CONTRACT_ALLOW_MONEY=1 (or --allow-money): recorded accounts and e-mails become the target’s', async () => {
    // With the session's recorded accounts list (mapped by currency), and without it (by the field).
    for (const [env, args, session] of [
      [
        { CONTRACT_ALLOW_MONEY: '1', CONTRACT_TRANSFER_TARGET: 'juan@staging.example' },
        [],
        MONEY_SESSION,
      ],
      [
        { CONTRACT_CUSTOMER_EMAIL: 'juan@staging.example' },
        ['--allow-money'],
        MONEY_SESSION.slice(1),
      ],
    ] as Array<[Record<string, string>, string[], RecordedExchange[]]>) {
      const svc = await fakeService(stagingWithTransfers());
      const { code, out } = await replay(har(session), svc.url, env, args);
      expect(out).toMatch(new RegExp(`total\\s+${session.length}/${session.length}`));
      expect(code).toBe(0);
      const sent = svc.seen.find((r) => r.method === 'POST');
      expect(JSON.parse(sent?.body ?? 'null')).toEqual({
        account: 'a1'.repeat(16), // the recorded PHP account, as the target's PHP account
        target_address: 'juan@staging.example',
        amount: '5',
      });
      // The read of what the transfer made names the target's transfer.
      expect(svc.seen.at(-1)?.url).toBe(`/v3/transfers/${'f0'.padEnd(32, '6')}`);
    }
  });
});

describe('replay: rate limits, as the contract suite', () => {
  it('waits out a 429 with Retry-After and sends the request again, and paces request starts', async () => {
    let first = true;
    const svc = await fakeService((r) => {
      if (path(r) === '/v3/crypto-accounts/') return accountsAnswer;
      if (path(r) === '/v1/markets' && first) {
        first = false;
        return {
          status: 429,
          body: { detail: 'Request was throttled.' },
          headers: { 'retry-after': '1' },
        };
      }
      return { status: 200, body: MARKETS_READ.response };
    });
    const { code, out } = await replay(har([MARKETS_READ, MARKETS_READ]), svc.url, {
      CONTRACT_MIN_INTERVAL_MS: '',
    });
    expect(out).toMatch(/total\s+2\/2/);
    expect(code).toBe(0);
    const markets = svc.seen.filter((r) => path(r) === '/v1/markets');
    expect(markets).toHaveLength(3);
    expect(gaps(markets)[0]).toBeGreaterThanOrEqual(990);
    // The suite's default spacing of request starts (200 ms; the first request's connection set-up
    // delays its arrival, so the gaps after it are measured).
    for (let i = 2; i < svc.seen.length; i++)
      expect(gaps(svc.seen)[i - 1]).toBeGreaterThanOrEqual(180);
  });
});

describe('replay: re-runnable', () => {
  it('gives each recorded external_transaction_id a fresh one per run, the same wherever the session names it', async () => {
    const refs = new Set<string>();
    const svc = await fakeService((r) => {
      const p = path(r);
      if (p === '/v3/crypto-accounts/') return accountsAnswer;
      if (p === '/v3/invoices/' && r.method === 'POST') {
        const ref = (JSON.parse(r.body) as { external_transaction_id: string })
          .external_transaction_id;
        if (refs.has(ref))
          return {
            status: 400,
            body: { errors: { external_transaction_id: ['Duplicate.'] } },
          };
        refs.add(ref);
        return {
          status: 201,
          body: { invoice: { id: `${refs.size}`.padEnd(32, '0'), external_transaction_id: ref } },
        };
      }
      if (p === '/v3/invoices/') {
        const ref = new URL(r.url, 'http://x').searchParams.get('external_transaction_id');
        if (ref === null) return { status: 200, body: { invoices: [] } }; // the preflight's read
        return refs.has(ref)
          ? { status: 200, body: { invoices: [{ external_transaction_id: ref }] } }
          : { status: 404, body: { errors: { detail: 'Not found.' } } };
      }
      return notFound;
    });
    const file = har([
      {
        method: 'POST',
        path: '/v3/invoices/',
        status: 201,
        auth: 'token',
        request: { amount: '20', currency: 'PHP', external_transaction_id: 'order-1001' },
        response: { invoice: { id: 'aa'.repeat(16), external_transaction_id: 'order-1001' } },
      },
      {
        method: 'GET',
        path: '/v3/invoices/?external_transaction_id=order-1001',
        status: 200,
        auth: 'token',
        response: { invoices: [{ external_transaction_id: 'order-1001' }] },
      },
    ]);
    const first = await replay(file, svc.url);
    const second = await replay(file, svc.url);
    expect(first.out).toMatch(/total\s+2\/2/);
    expect(second.out).toBe(first.out);
    expect(second.code).toBe(0);
    expect(refs.size).toBe(2);
    const posts = svc.seen.filter((r) => r.method === 'POST');
    const reads = svc.seen.filter(
      (r) => r.method === 'GET' && path(r) === '/v3/invoices/' && r.url.includes('external'),
    );
    for (const [i, post] of posts.entries()) {
      const ref = (JSON.parse(post.body) as { external_transaction_id: string })
        .external_transaction_id;
      expect(ref).not.toBe('order-1001');
      expect(reads[i]?.url).toBe(`/v3/invoices/?external_transaction_id=${ref}`);
    }
  });
});

describe('replay: HAR 1.2 bodies as other tools write them, and the target named as such', () => {
  it('decodes a base64 answer, sends a form given as params, and labels the answer the target’s', async () => {
    const svc = await fakeService((r) => {
      const p = path(r);
      if (p === '/v3/crypto-accounts/') return accountsAnswer;
      if (p === '/v1/markets') return { status: 200, body: MARKETS_READ.response };
      if (p === '/v3/payment-requests/' && r.method === 'POST') {
        const form = new URLSearchParams(r.body);
        return form.get('amount') === '5'
          ? { status: 201, body: { payment_request: { id: 'ab'.repeat(16), amount: '5' } } }
          : { status: 400, body: { errors: { detail: 'No data provided.' } } };
      }
      return notFound;
    });
    const file = har([
      { ...MARKETS_READ, base64: true },
      {
        method: 'POST',
        path: '/v3/payment-requests/',
        status: 201,
        params: { amount: '5', currency: 'PHP', message: 'lunch' },
        response: { payment_request: { id: 'cd'.repeat(16), amount: '5' } },
      },
      { ...MARKETS_READ, path: '/v1/markets/BTC-PHP' },
    ]);
    const { code, out } = await replay(file, svc.url);
    expect(out).toMatch(/total\s+2\/3/);
    expect(out).toMatch(/UNEXPLAINED status\s+\S*\s+recorded 200; target 404/);
    expect(out).toContain('the target\'s answer: {"errors":{"detail":"Not found."}}');
    expect(out).not.toMatch(/session\d+\.har#[01] /);
    expect(code).toBe(1);
    expect(svc.seen.find((r) => r.method === 'POST')?.body).toBe(
      'amount=5&currency=PHP&message=lunch',
    );
  });

  it('lists the entries it skipped, with the reason, in the text report', async () => {
    const svc = await fakeService(stagingWithTransfers());
    const { out } = await replay(har(MONEY_SESSION), svc.url);
    expect(out).toMatch(
      /#1 {2}POST \S+\/v3\/transfers\/ {2}→ createTransfer {2}\[skipped\] {2}createTransfer moves money: set CONTRACT_ALLOW_MONEY=1/,
    );
  });

  it('skips what a devtools export holds besides API calls: other hosts, pages and static files', async () => {
    const svc = await fakeService((r) =>
      path(r) === '/v1/markets' ? { status: 200, body: MARKETS_READ.response } : accountsAnswer,
    );
    const file = har([
      {
        ...MARKETS_READ,
        origin: 'https://cdn.example.com',
        path: '/app.js',
        mimeType: 'application/javascript',
        response: 'x',
      },
      {
        ...MARKETS_READ,
        path: '/payment/invoice/abc',
        mimeType: 'text/html; charset=utf-8',
        response: '<html>',
      },
      MARKETS_READ,
    ]);
    const { code, out } = await replay(file, svc.url, {}, ['--json']);
    const { results } = JSON.parse(out) as { results: Array<{ status: string; note?: string }> };
    expect(results.map((r) => [r.status, r.note])).toEqual([
      [
        'skipped',
        "not a call to the API: another host (https://cdn.example.com; the session's API is http://127.0.0.1:7070)",
      ],
      ['skipped', 'not a call to the API: a page or static file (text/html)'],
      ['match', undefined],
    ]);
    expect(code).toBe(0);
    expect(svc.seen.map(path)).toEqual(['/v3/crypto-accounts/', '/v1/markets']);
  });
});
