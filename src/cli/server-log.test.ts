import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AttemptReport } from '../callbacks/delivery.dispatcher.js';
import { spawnServer, type SpawnedServer } from '../testing/spawn-server.js';
import { createServerLog, failureKind, wantsColor } from './server-log.js';
import { waitUntil } from '../testing/wait.js';

const AT = Date.parse('2026-11-23T10:11:12.345Z');
const body = JSON.stringify({
  event: { name: 'invoice.fully_paid', data: { id: 'a'.repeat(32) } },
});

function attempt(o: Partial<AttemptReport>): AttemptReport {
  return {
    delivery_id: 'd'.repeat(32),
    event_id: 'e'.repeat(32),
    merchant_id: 'm'.repeat(32),
    body,
    url: 'http://127.0.0.1:4040/callbacks',
    attempt: 1,
    status_code: 200,
    error: null,
    duration_ms: 3.25,
    status: 'delivered',
    next_attempt_at: null,
    ...o,
  };
}

function capture(format: 'text' | 'json', color = false) {
  const lines: string[] = [];
  return {
    lines,
    log: createServerLog({ format, color, write: (l) => lines.push(l), nowMs: () => AT }),
  };
}

const refused = (n: number, status: AttemptReport['status'] = 'pending') =>
  attempt({
    attempt: n,
    status_code: null,
    error: 'connection failed: connect ECONNREFUSED 127.0.0.1:4040',
    status,
    next_attempt_at: 1_800_000_000_000_000,
  });

describe('the server log', () => {
  it('prints one text line per request: time, method, path, status, auth outcome, milliseconds', () => {
    const { lines, log } = capture('text');
    log.request('POST', '/v1/invoices/', 201, `merchant:${'m'.repeat(32)}`, 2.345);
    log.request('GET', '/v1/invoices/x', 401, 'invalid_token', 0.5);
    expect(lines).toEqual([
      `10:11:12.345 POST   /v1/invoices/ 201 merchant:${'m'.repeat(32)} 2.3 ms`,
      '10:11:12.345 GET    /v1/invoices/x 401 invalid_token 0.5 ms',
    ]);
  });

  it('colors on a terminal only, and never under NO_COLOR', () => {
    const { lines, log } = capture('text', true);
    log.request('GET', '/healthz', 200, 'none', 1);
    log.request('GET', '/nope', 404, 'none', 1);
    expect(lines[0]).toContain('\x1b[32m200\x1b[0m');
    expect(lines[1]).toContain('\x1b[33m404\x1b[0m');
    expect(wantsColor({ isTTY: true }, {})).toBe(true);
    expect(wantsColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColor({ isTTY: false }, {})).toBe(false);
    expect(wantsColor({}, {})).toBe(false);
  });

  it('prints one JSON object per line with --log-format json', () => {
    const { lines, log } = capture('json');
    log.request('GET', '/healthz', 200, 'none', 0.25);
    log.attempt(attempt({}));
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      {
        type: 'request',
        at: '2026-11-23T10:11:12.345Z',
        method: 'GET',
        path: '/healthz',
        status: 200,
        auth: 'none',
        duration_ms: 0.25,
      },
      expect.objectContaining({
        type: 'callback',
        event: 'invoice.fully_paid',
        invoice_id: 'a'.repeat(32),
        attempt: 1,
        status_code: 200,
        status: 'delivered',
      }),
    ]);
  });

  it('says `fault` and the fault id on a request an injected fault answered, in text and JSON', () => {
    const text = capture('text');
    text.log.request('GET', '/v1/invoices/x', 503, `merchant:${'m'.repeat(32)}`, 1, 'f'.repeat(32));
    expect(text.lines).toEqual([
      `10:11:12.345 GET    /v1/invoices/x 503 merchant:${'m'.repeat(32)} 1.0 ms fault ${'f'.repeat(32)}`,
    ]);
    const json = capture('json');
    json.log.request('GET', '/v1/invoices/x', 503, 'none', 1, 'f'.repeat(32));
    expect(JSON.parse(json.lines[0]!)).toMatchObject({
      type: 'request',
      status: 503,
      fault: 'f'.repeat(32),
    });
  });

  it("leaves out the hosted page's status polls", () => {
    const { lines, log } = capture('text');
    log.request('GET', `/payment/invoice/${'a'.repeat(32)}/status`, 200, 'none', 0.2);
    expect(lines).toEqual([]);
  });

  it('prints a callback attempt with its event, invoice, URL, answer and what comes next', () => {
    const { lines, log } = capture('text');
    log.attempt(attempt({}));
    log.attempt(
      attempt({
        attempt: 2,
        status_code: 500,
        error: 'receiver answered 500',
        status: 'pending',
        next_attempt_at: 1_800_000_000_000_000,
      }),
    );
    expect(lines[0]).toBe(
      `10:11:12.345 callback invoice.fully_paid invoice=${'a'.repeat(32)} → http://127.0.0.1:4040/callbacks attempt 1 200 3.3 ms delivered`,
    );
    expect(lines[1]).toMatch(
      /attempt 2 500 3\.3 ms retry at 2027-01-15T08:00:00\.000000Z \(sandbox clock\) \(receiver answered 500\)$/,
    );
  });

  it('says once that a callback URL is down, not every attempt, and once that it answers again', () => {
    const { lines, log } = capture('text');
    log.attempt(refused(1));
    log.attempt(refused(2));
    log.attempt(refused(3));
    expect(lines[0]).toBe(
      '10:11:12.345 callbacks to http://127.0.0.1:4040/callbacks failing: ECONNREFUSED (will retry; further failures are not shown until it answers)',
    );
    expect(lines[1]).toMatch(/callback invoice\.fully_paid .* attempt 1 no answer .* retry at/);
    expect(lines).toHaveLength(2);
    log.attempt(attempt({ attempt: 4 }));
    expect(lines.slice(2)).toEqual([
      '10:11:12.345 callbacks to http://127.0.0.1:4040/callbacks answering again (2 failed attempt(s) not shown)',
      `10:11:12.345 callback invoice.fully_paid invoice=${'a'.repeat(32)} → http://127.0.0.1:4040/callbacks attempt 4 200 3.3 ms delivered`,
    ]);
    log.attempt(refused(1));
    expect(lines[4]).toMatch(/failing: ECONNREFUSED/); // down again: said again
  });

  it('still prints a delivery that fails for good while its URL is down', () => {
    const { lines, log } = capture('json');
    log.attempt(refused(1));
    log.attempt(refused(2, 'failed'));
    expect(lines.map((l) => JSON.parse(l).type)).toEqual([
      'callback_target',
      'callback',
      'callback',
    ]);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      url: 'http://127.0.0.1:4040/callbacks',
      state: 'failing',
      kind: 'ECONNREFUSED',
    });
  });

  it('names the kind of failure', () => {
    expect(failureKind('connection failed: connect ECONNREFUSED 127.0.0.1:9')).toBe('ECONNREFUSED');
    expect(failureKind('connection failed: getaddrinfo ENOTFOUND shop.invalid')).toBe('ENOTFOUND');
    expect(failureKind('timeout: no answer within 10000 ms')).toBe('timeout');
    expect(failureKind('connection failed: socket hang up')).toBe('socket hang up');
  });
});

describe('paysandbox start prints what happens', () => {
  let server: SpawnedServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  const waitForOutput = async (pattern: RegExp) => {
    await waitUntil(`output matching ${pattern}`, () => pattern.test(server!.output())).catch(
      () => undefined,
    );
    return server!.output();
  };

  it('a line per request and per callback attempt, and a down receiver once (text, no ANSI without a TTY)', async () => {
    // A port that refuses connections: bound, then closed.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    server = await spawnServer(['--db', ':memory:', '--retry-schedule', '0.1,0.1,0.1,0.1'], {
      env: { NO_COLOR: '', FORCE_COLOR: '' },
    });
    const merchants = (await (await fetch(`${server.url}/_sandbox/merchants`)).json()) as {
      merchants: Array<{ id: string; merchant_api_token: string }>;
    };
    // Listed in fixture order: the first is the merchant `trigger` uses (its callbacks go to the sandbox's
    // own example receiver out of the box; here to a port that refuses them).
    const m = merchants.merchants[0]!;
    await fetch(`${server.url}/_sandbox/merchants/${m.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ callback_url: `http://127.0.0.1:${port}/callbacks` }),
    });
    await fetch(`${server.url}/v1/invoices/nope`, { headers: { authorization: 'Token wrong' } });
    await fetch(`${server.url}/_sandbox/trigger`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'invoice.created' }),
    });
    const out = await waitForOutput(/callback invoice\.created .* attempt 5 .* failed for good/);
    expect(out).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} GET {4}\/v1\/invoices\/nope 401 invalid_token [\d.]+ ms$/m,
    );
    expect(out).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} POST {3}\/_sandbox\/trigger 201 control [\d.]+ ms$/m,
    );
    expect(out.match(/failing: ECONNREFUSED/g)).toHaveLength(1);
    // Attempts 2-4 are not shown; the last one, which gives up, is.
    expect(out.match(/callback invoice\.created/g)).toHaveLength(2);
    expect(out).not.toContain('\x1b[');
  });

  it('JSON lines with --log-format json, nothing with --quiet', async () => {
    server = await spawnServer(['--db', ':memory:', '--log-format', 'json']);
    await fetch(`${server.url}/healthz`);
    const out = await waitForOutput(/"path":"\/healthz"/);
    const stdoutJson = out.split('\n').filter((l) => l.startsWith('{'));
    expect(stdoutJson.map((l) => JSON.parse(l).type)).toEqual(['listening', 'request']);
    expect(JSON.parse(stdoutJson[1]!)).toMatchObject({
      method: 'GET',
      path: '/healthz',
      status: 200,
      auth: 'none',
    });
    await server.stop();

    server = await spawnServer(['--db', ':memory:', '--quiet']);
    await fetch(`${server.url}/healthz`);
    await fetch(`${server.url}/v1/invoices/nope`);
    await server.stop();
    expect(server.output().trim().split('\n')).toEqual([
      expect.stringMatching(
        /^paysandbox listening on http:\/\/127\.0\.0\.1:\d+ {2}\(ready in \d+ ms\)$/,
      ),
    ]);
  });
});
