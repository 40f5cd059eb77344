import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest } from '../auth/hmac.js';
import { runCli, spawnCli } from '../testing/spawn-server.js';
import { corpusFiles, loadEntries, recordedAnswer, type HarLog } from './har.js';

/**
 * A fake upstream on 127.0.0.1 that answers like the recorded corpus: the first JSON body recorded for
 * the method and path (legacy prefix and trailing slash aside), at its status or 200. `tweak` changes
 * one answer, to play a staging that differs.
 */
function fakeUpstream(tweak?: (path: string, body: unknown) => unknown): Promise<{
  url: string;
  seen: Array<{ url: string; headers: IncomingHttpHeaders; body: string }>;
  server: Server;
}> {
  const answers = new Map<string, { status: number; body: unknown }>();
  for (const { entry } of loadEntries(corpusFiles())) {
    const rec = recordedAnswer(entry);
    if (rec.body.kind !== 'json' || rec.body.truncated || rec.body.partial || entry._direction)
      continue;
    const path = new URL(entry.request.url.replace(/[{}]/g, '')).pathname
      .replace(/^\/(api|d\/api)/, '')
      .replace(/\/$/, '');
    const key = `${entry.request.method} ${path}`;
    if (!answers.has(key))
      answers.set(key, {
        status: rec.status ?? (entry.request.method === 'POST' ? 201 : 200),
        body: rec.body.value,
      });
  }
  const seen: Array<{ url: string; headers: IncomingHttpHeaders; body: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ url: req.url!, headers: req.headers, body });
      const path = new URL(req.url!, 'http://x').pathname
        .replace(/^\/(api|d\/api)/, '')
        .replace(/\/$/, '');
      const a = answers.get(`${req.method} ${path}`);
      const out = a ? (tweak ? tweak(path, a.body) : a.body) : { errors: { detail: 'Not found.' } };
      res
        .writeHead(a?.status ?? 404, { 'content-type': 'application/json' })
        .end(JSON.stringify(out));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server }),
    ),
  );
}

const dir = mkdtempSync(join(tmpdir(), 'paysandbox-record-'));
const har = join(dir, 'session.har');
const CREDS = {
  CONTRACT_API_KEY: 'staging-key',
  CONTRACT_API_SECRET: 'staging-secret',
  CONTRACT_BEARER_TOKEN: 'staging-bearer',
  CONTRACT_MERCHANT_TOKEN: 'staging-token',
  CONTRACT_MIN_INTERVAL_MS: '0',
};
let upstream: Awaited<ReturnType<typeof fakeUpstream>>;
let changed: Awaited<ReturnType<typeof fakeUpstream>>;

beforeAll(async () => {
  upstream = await fakeUpstream();
  changed = await fakeUpstream((path, body) =>
    path === '/v1/sellorder'
      ? { order: { ...(body as { order: object }).order, amount: '5.00000000', fee: '0' } }
      : body,
  );
});
afterAll(() => {
  upstream.server.close();
  changed.server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('paysandbox record and replay, against a fake upstream that answers like the corpus', () => {
  it('records through the proxy: the answers pass unchanged, the HAR 1.2 file has its secrets scrubbed', async () => {
    const rec = spawnCli([
      'record',
      '--upstream',
      upstream.url,
      '--port',
      '0',
      '--out',
      har,
      '--mask-pii',
    ]);
    const proxy = (await rec.waitFor(/listening on (http:\/\/\S+),/))[1]!;
    const accounts = await fetch(`${proxy}/api/v3/crypto-accounts/`, {
      headers: {
        ACCESS_KEY: 'app-key-1',
        ACCESS_SIGNATURE: 'sig-secret-1',
        ACCESS_NONCE: '1700000000000001',
      },
    });
    expect(accounts.status).toBe(200);
    expect(
      ((await accounts.json()) as { 'crypto-accounts': unknown[] })['crypto-accounts'],
    ).toHaveLength(1);
    const sell = await fetch(`${proxy}/v1/sellorder`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer bearer-secret-2',
        'content-type': 'application/json',
        'access-otp': '654321',
      },
      body: JSON.stringify({
        amount: 5,
        currency: 'PHP',
        payment_outlet: 'coins_transfer',
        target_address: 'ana.reyes@example.com',
        code: '123456',
      }),
    });
    expect(sell.status).toBe(201);
    expect(((await sell.json()) as { order: { amount: string } }).order.amount).toBe('5');
    expect(
      (await fetch(`${proxy}/d/api/payout-outlets/?access_token=query-secret-3&page=1`)).status,
    ).toBe(200);
    rec.child.kill('SIGTERM');
    expect(await rec.exited).toBe(0);
    expect(rec.output()).toMatch(/3 exchange\(s\) written/);
    const text = readFileSync(har, 'utf8');
    for (const secret of [
      'sig-secret-1',
      'app-key-1',
      'bearer-secret-2',
      '654321',
      '123456',
      'query-secret-3',
      'ana.reyes@',
    ])
      expect(text).not.toContain(secret);
    const log = (JSON.parse(text) as HarLog).log;
    expect(log.version).toBe('1.2');
    expect(
      log.entries.map(
        (e) => `${e.request.method} ${new URL(e.request.url).pathname} ${e.response.status}`,
      ),
    ).toEqual([
      'GET /api/v3/crypto-accounts/ 200',
      'POST /v1/sellorder 201',
      'GET /d/api/payout-outlets/ 200',
    ]);
    const [first, second] = log.entries;
    expect(first!.request.headers.find((h) => h.name === 'access_nonce')?.value).toBe(
      '1700000000000001',
    );
    expect(second!.request.headers.find((h) => h.name === 'authorization')?.value).toBe(
      '<redacted: Bearer>',
    );
    expect(JSON.parse(second!.request.postData!.text!)).toMatchObject({
      target_address: 'a***@example.com',
      code: '<redacted>',
    });
    expect(upstream.seen[1]!.body).toContain('ana.reyes@example.com'); // the upstream got the real request
  });

  it('replays the session against the same service, re-signed: every answer has the recorded shape (exit 0)', async () => {
    upstream.seen.length = 0;
    // The session has a sell order: money, sent with the contract suite's opt-in.
    const { code, out } = await runCli(['replay', '--har', har, '--base-url', upstream.url], {
      env: { ...CREDS, CONTRACT_ALLOW_MONEY: '1' },
    });
    expect(out).toMatch(/total\s+3\/3/);
    expect(code).toBe(0);
    // After the preflight's two reads (HMAC, bearer): the session's three requests.
    expect(upstream.seen).toHaveLength(5);
    const signed = upstream.seen[2]!;
    const url = `${upstream.url}${signed.url}`;
    expect(signed.headers.access_key).toBe('staging-key');
    expect(signed.headers.access_signature).toBe(
      signRequest('staging-secret', String(signed.headers.access_nonce), url, ''),
    );
    expect(BigInt(String(signed.headers.access_nonce))).toBeGreaterThan(1700000000000001n);
    expect(upstream.seen[3]!.headers.authorization).toBe('Bearer staging-bearer');
  });

  it('diffs the answers of a service that differs (exit 1), naming the path and the formats', async () => {
    const { code, out } = await runCli(['replay', '--har', har, '--base-url', changed.url], {
      env: { ...CREDS, CONTRACT_ALLOW_MONEY: '1' },
    });
    expect(out).toMatch(
      /UNEXPLAINED format\s+order\.amount\s+recorded decimal\(as entered\) "5"; target decimal\(8 places\) "5\.00000000"/,
    );
    expect(out).toMatch(/UNEXPLAINED extra\s+order\.fee/);
    expect(code).toBe(1);
  });

  it('keeps the safety rules of the contract suite: no production host, the credentials the session needs', async () => {
    const prod = await runCli(['replay', '--har', har, '--base-url', 'https://api.coins.asia'], {
      env: CREDS,
    });
    expect(prod.out).toMatch(
      /^paysandbox replay: Refusing to replay against https:\/\/api\.coins\.asia: it looks like production/,
    );
    expect(prod.code).toBe(2);
    const bare = await runCli(['replay', '--har', har, '--base-url', upstream.url], {
      env: { CONTRACT_API_KEY: '', CONTRACT_API_SECRET: '', CONTRACT_BEARER_TOKEN: '' },
    });
    expect(bare.out).toMatch(/set CONTRACT_API_KEY, CONTRACT_API_SECRET, CONTRACT_BEARER_TOKEN/);
    expect(bare.code).toBe(2);
    const record = await runCli([
      'record',
      '--upstream',
      'https://coins.ph',
      '--out',
      join(dir, 'x.har'),
    ]);
    expect(record.out).toMatch(/^paysandbox record: Refusing to record https:\/\/coins\.ph/);
    expect(record.code).toBe(2);
  });
});
