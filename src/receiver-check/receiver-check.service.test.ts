import { afterEach, describe, expect, it } from 'vitest';
import {
  startMerchantReceiver,
  type ReceiverOptions,
} from '../../examples/merchant-callback/server.js';
import { checkReceiver, type ReceiverReport } from './receiver-check.service.js';
import {
  acceptsAnyToken,
  answersAfter,
  redirects,
  refusesDuplicates,
  refusesOlderEvents,
  startTestReceiver,
  type TestHandler,
} from './receiver-check.test-support.js';

const TOKEN = 'a3f1c2d4e5b60718293a4b5c6d7e8f90';
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function example(o: Partial<ReceiverOptions> = {}) {
  const r = await startMerchantReceiver({ token: TOKEN, port: 0, ...o });
  closers.push(() => r.close());
  return r;
}

async function receiver(handle: TestHandler) {
  const r = await startTestReceiver(handle);
  closers.push(() => r.close());
  return r;
}

function grades(report: ReceiverReport): Record<string, string> {
  return Object.fromEntries(report.checks.map((c) => [c.id, c.grade]));
}

const ALL_PASS = {
  'valid-event': 'PASS',
  'duplicate-delivery': 'PASS',
  'out-of-order': 'PASS',
  'missing-token': 'PASS',
  'wrong-token': 'PASS',
  'slow-ack': 'PASS',
  'content-type': 'INFO',
};

describe('checkReceiver', () => {
  it('passes the example receiver (with --require-token, as behind TLS) and sends what the callback engine sends', async () => {
    const r = await example({ requireToken: true });
    const report = await checkReceiver({ url: r.url, token: TOKEN, timeoutMs: 5_000 });
    expect(grades(report)).toEqual(ALL_PASS);
    expect(report.passed).toBe(true);
    expect(report.summary).toEqual({ pass: 6, warn: 0, fail: 0, info: 1 });
    expect(report.checks.find((c) => c.id === 'content-type')!.reason).toBe(
      '200 with Content-Type text/plain, body "OK"',
    );

    const names = r.received.map((cb) => `${cb.event?.event.name}:${cb.attempt}:${cb.status}`);
    expect(names).toEqual([
      'invoice.fully_paid:1:200',
      'invoice.fully_paid:1:200',
      'invoice.fully_paid:2:200',
      'invoice.fully_paid:1:200',
      'invoice.updated:1:200',
      'invoice.fully_paid:1:401',
      'invoice.fully_paid:1:401',
    ]);
    const [valid, dup1, dup2, newer, older, missing, wrong] = r.received;
    expect(valid!.headers).toMatchObject({
      'content-type': 'application/json',
      authorization: `Token ${TOKEN}`,
      'user-agent': 'paysandbox-callbacks/1',
    });
    expect(valid!.eventId).toMatch(/^[0-9a-f]{32}$/);
    expect(valid!.event!.event.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      currency: 'PHP',
      amount: '100',
      amount_received: '100',
      external_transaction_id: `check-receiver-${report.run_id.slice(0, 12)}-valid`,
    });
    // The duplicate is byte for byte the same event, marked as a repeat by the example receiver.
    expect(dup2!.eventId).toBe(dup1!.eventId);
    expect(dup2!.body).toBe(dup1!.body);
    expect(dup2!.duplicate).toBe(true);
    // Out of order: the same invoice, the partial payment arriving after full payment.
    expect(older!.event!.event.data.id).toBe(newer!.event!.event.data.id);
    expect(older!.event!.event.data.amount_received).toBe('40');
    expect(missing!.headers.authorization).toBeUndefined();
    expect(wrong!.headers.authorization).toMatch(/^Token [0-9a-f]{32}$/);
    expect(wrong!.headers.authorization).not.toBe(`Token ${TOKEN}`);
    // Every check has its own invoice, and the report never carries the token.
    const invoices = new Set(
      [valid, dup1, newer, missing, wrong].map((cb) => cb!.event!.event.data.id),
    );
    expect(invoices.size).toBe(5);
    expect(JSON.stringify(report)).not.toContain(TOKEN);
    expect(report.notes[0]).toMatch(/synthetic test events/);
    expect(report.notes[1]).toMatch(/^http URL: .*callback_auth is "always"/);
  });

  it('uses new ids on every run', async () => {
    const r = await example({ requireToken: true });
    const a = await checkReceiver({ url: r.url, token: TOKEN });
    const b = await checkReceiver({ url: r.url, token: TOKEN });
    expect(a.run_id).not.toBe(b.run_id);
    const ids = r.received.map((cb) => cb.event!.event.data.id);
    const eventIds = r.received.map((cb) => cb.eventId);
    expect(new Set(ids).size).toBe(10);
    expect(new Set(eventIds).size).toBe(12); // 14 requests; the duplicate repeats one id per run
  });

  it('warns, without failing, when the example receiver in its default mode accepts token-less callbacks on http', async () => {
    const r = await example();
    const report = await checkReceiver({ url: r.url, token: TOKEN });
    expect(grades(report)).toEqual({ ...ALL_PASS, 'missing-token': 'WARN' });
    expect(report.passed).toBe(true);
  });

  it('fails a handler that accepts any token on both auth checks', async () => {
    const r = await receiver(acceptsAnyToken());
    const report = await checkReceiver({ url: r.url, token: TOKEN });
    expect(grades(report)).toEqual({ ...ALL_PASS, 'missing-token': 'WARN', 'wrong-token': 'FAIL' });
    const wrong = report.checks.find((c) => c.id === 'wrong-token')!;
    expect(wrong.reason).toBe(
      'answered 200 to a callback with a wrong token: this handler accepts unauthenticated callbacks',
    );
    expect(wrong.expected).toMatch(/answers 401 on a mismatch/);
    expect(report.summary.fail).toBe(1);
  });

  it('fails a handler that refuses a repeated event', async () => {
    const r = await receiver(refusesDuplicates(TOKEN));
    const report = await checkReceiver({ url: r.url, token: TOKEN });
    expect(grades(report)).toEqual({ ...ALL_PASS, 'duplicate-delivery': 'FAIL' });
    const dup = report.checks.find((c) => c.id === 'duplicate-delivery')!;
    expect(dup.reason).toMatch(
      /^the repeat of an acknowledged event answered 409 \(already processed\)/,
    );
    expect(dup.requests.map((q) => [q.attempt, q.status])).toEqual([
      [1, 200],
      [2, 409],
    ]);
    expect(dup.requests[0]!.event_id).toBe(dup.requests[1]!.event_id);
  });

  it('warns about a handler that refuses an older event', async () => {
    const r = await receiver(refusesOlderEvents(TOKEN));
    const report = await checkReceiver({ url: r.url, token: TOKEN });
    expect(grades(report)).toEqual({ ...ALL_PASS, 'out-of-order': 'WARN' });
    expect(report.passed).toBe(true);
  });

  it('fails a handler that answers after the timeout, on the valid event and on speed', async () => {
    const r = await receiver(answersAfter(TOKEN, 1_500));
    const report = await checkReceiver({ url: r.url, token: TOKEN, timeoutMs: 300 });
    expect(grades(report)).toMatchObject({
      'valid-event': 'FAIL',
      'slow-ack': 'FAIL',
      'content-type': 'INFO',
    });
    expect(report.checks.find((c) => c.id === 'slow-ack')!.reason).toMatch(
      /^no answer within 300 ms: .*retry it$/,
    );
    expect(report.checks.find((c) => c.id === 'valid-event')!.reason).toMatch(
      /^timeout: no answer within 300 ms/,
    );
  });

  it('warns about a handler slower than the slow threshold but inside the timeout', async () => {
    const r = await receiver(answersAfter(TOKEN, 150));
    const report = await checkReceiver({ url: r.url, token: TOKEN, timeoutMs: 5_000, slowMs: 50 });
    expect(grades(report)).toEqual({ ...ALL_PASS, 'slow-ack': 'WARN' });
    expect(report.checks.find((c) => c.id === 'slow-ack')!.reason).toMatch(
      /^answered in \d+ ms, above 50 ms; at 5000 ms the delivery counts as failed$/,
    );
  });

  it('warns about a redirect, which is never followed', async () => {
    const r = await receiver(redirects());
    const report = await checkReceiver({ url: r.url, token: TOKEN });
    const valid = report.checks.find((c) => c.id === 'valid-event')!;
    expect(valid.grade).toBe('WARN');
    expect(valid.reason).toMatch(
      /^redirect 308 to https:\/\/merchant\.example\/callbacks\/ not followed/,
    );
    expect(r.received).toHaveLength(7);
  });

  it('fails an address where nothing listens', async () => {
    const r = await receiver(acceptsAnyToken());
    await r.close();
    const report = await checkReceiver({ url: r.url, token: TOKEN });
    expect(report.checks.find((c) => c.id === 'valid-event')).toMatchObject({
      grade: 'FAIL',
      reason: expect.stringMatching(/^connection failed: /),
    });
    expect(report.passed).toBe(false);
  });
});
