import { afterEach, describe, expect, it } from 'vitest';
import {
  startMerchantReceiver,
  type ReceiverOptions,
} from '../../examples/merchant-callback/server.js';
import type { AppConfig } from '../config.js';
import { openDatabase } from '../db/open.js';
import { createSandbox, sharedSpec, type Sandbox } from '../sandbox.js';
import { listen } from '../server.js';
import { runCli } from '../testing/spawn-server.js';

const TOKEN = 'control-secret';
const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A real sandbox server (in this process) with its dispatcher running, and the merchant's receiver. */
async function serve(o: { config?: Partial<AppConfig>; receiver?: Partial<ReceiverOptions> } = {}) {
  const sandbox: Sandbox = createSandbox({
    db: openDatabase(':memory:'),
    spec: sharedSpec(),
    config: { db: ':memory:', port: 0, quiet: true, controlToken: TOKEN, ...o.config },
  });
  const merchant = sandbox.fixtures.merchants[0]!;
  const receiver = await startMerchantReceiver({
    token: merchant.merchant_api_token,
    port: 0,
    ...o.receiver,
  });
  sandbox.modules.identities.api.updateMerchant(merchant.id, { callback_url: receiver.url });
  const server = await listen(sandbox);
  sandbox.startBackground();
  cleanups.push(
    () => receiver.close(),
    () => sandbox.close(),
    () => server.stop(),
  );
  return { sandbox, server, receiver, merchant };
}

/** Run `paysandbox trigger …` as a user would, in a child process (bounded by --timeout). */
const trigger = (args: string[]) =>
  runCli(['trigger', ...args], { env: { SANDBOX_CONTROL_TOKEN: '' } });

describe('paysandbox trigger', () => {
  it('works out of the box: the first merchant callbacks land in the example receiver of this sandbox (exit 0)', async () => {
    const sandbox = createSandbox({
      db: openDatabase(':memory:'),
      spec: sharedSpec(),
      config: { db: ':memory:', port: 0, quiet: true },
    });
    const server = await listen(sandbox);
    sandbox.startBackground();
    cleanups.push(
      () => sandbox.close(),
      () => server.stop(),
    );
    const { code, out } = await trigger(['invoice.fully_paid', '--url', server.url]);
    const merchantId = sandbox.fixtures.merchants[0]!.id;
    expect(out).toMatch(
      new RegExp(
        `^delivery [0-9a-f]{32} delivered after 1 attempt\\(s\\) to http://127\\.0\\.0\\.1:${server.port}/_sandbox/inbox/${merchantId}$`,
        'm',
      ),
    );
    expect(code).toBe(0);
    const inbox = sandbox.modules.callbacks.api.inbox.list({ merchant_id: merchantId });
    expect(inbox.map((e) => e.event)).toEqual(['invoice.fully_paid', 'invoice.created']);
  });

  it('makes invoice.fully_paid happen, waits for the callback and prints the receiver answer', async () => {
    const { server, receiver } = await serve();
    const { code, out } = await trigger([
      'invoice.fully_paid',
      '--url',
      server.url,
      '--token',
      TOKEN,
    ]);
    expect(out).toMatch(
      /^invoice\.fully_paid on invoice [0-9a-f]{32} \(status fully_paid, amount_received \d+\.\d{8}\)$/m,
    );
    expect(out).toMatch(
      /^delivery [0-9a-f]{32} delivered after 1 attempt\(s\) to http:\/\/127\.0\.0\.1:\d+\/callbacks$/m,
    );
    expect(out).toMatch(/^ {2}attempt 1 {2}200 .* receiver answered: OK$/m);
    expect(code).toBe(0);
    const names = receiver.received.map((r) => r.event?.event.name);
    expect(names).toEqual(['invoice.created', 'invoice.fully_paid']);
  });

  it('waits for the new delivery of an event the invoice already had', async () => {
    const { server, sandbox, merchant } = await serve();
    const row = sandbox.modules.identities.api.merchantById(merchant.id)!;
    const inv = sandbox.modules.invoices.api.create(row, {
      amount: '20',
      currency: 'PHP',
      external_transaction_id: 'cli-partial',
    });
    const first = await trigger([
      'invoice.updated',
      '--invoice',
      inv.id,
      '--url',
      server.url,
      '--token',
      TOKEN,
    ]);
    expect(first.out).toMatch(/amount_received 10\.00000000/);
    const second = await trigger([
      'invoice.updated',
      '--invoice',
      inv.id,
      '--url',
      server.url,
      '--token',
      TOKEN,
    ]);
    expect(second.out).toMatch(/amount_received 15\.00000000/);
    expect(second.code).toBe(0);
    const ids = [first.out, second.out].map(
      (o) => /^delivery ([0-9a-f]{32}) delivered/m.exec(o)?.[1],
    );
    expect(ids[0]).toBeDefined();
    expect(ids[1]).toBeDefined();
    expect(ids[1]).not.toBe(ids[0]);
  });

  it('exits 1 with the attempts when the delivery fails', async () => {
    const { server } = await serve({
      config: { retrySchedule: [] },
      receiver: { respond: () => ({ status: 500, body: 'down for maintenance' }) },
    });
    const { code, out } = await trigger([
      'invoice.fully_paid',
      '--url',
      server.url,
      '--token',
      TOKEN,
    ]);
    expect(out).toMatch(/^delivery [0-9a-f]{32} failed after 1 attempt\(s\)/m);
    expect(out).toMatch(
      /attempt 1 {2}500 .* receiver answered 500 {2}receiver answered: down for maintenance/,
    );
    expect(code).toBe(1);
  });

  it('exits 1 at --timeout while the delivery is still retrying', async () => {
    const { server } = await serve({ receiver: { respond: () => ({ status: 503 }) } });
    // The receiver never accepts, so the delivery is pending at any timeout: long enough for the first attempt
    // of invoice.created to be made on a busy machine, short enough not to reach its retry 10 s later.
    const { code, out } = await trigger([
      'invoice.fully_paid',
      '--url',
      server.url,
      '--token',
      TOKEN,
      '--timeout',
      '6s',
    ]);
    // invoice.created failed first, so invoice.fully_paid waits for it (per-invoice order).
    expect(out).toMatch(/^delivery [0-9a-f]{32} pending after 0 attempt\(s\)/m);
    expect(out).toMatch(
      /^ {2}waiting for the earlier invoice\.created \(delivery [0-9a-f]{32}, pending, 1 attempt\(s\): receiver answered 503\)$/m,
    );
    expect(out).toMatch(/^still pending at the timeout/m);
    expect(code).toBe(1);
  });

  it('prints each attempt as it happens', async () => {
    const { server } = await serve({
      receiver: { failFirst: 1 },
      config: { retrySchedule: [0.2] },
    });
    // The command ends as soon as the delivery is made; the timeout only bounds a failure.
    const { code, out } = await trigger([
      'invoice.fully_paid',
      '--url',
      server.url,
      '--token',
      TOKEN,
      '--timeout',
      '50s',
    ]);
    // The live lines come before the summary: the failed first attempt, its retry, then invoice.fully_paid.
    const live = out.split('\n').filter((l) => l.startsWith('→ '));
    expect(live[0]).toMatch(
      /^→ invoice\.created attempt 1 to http:\/\/127\.0\.0\.1:\d+\/callbacks: 500 in [\d.]+ ms \(receiver answered 500\), retry at \S+ \(sandbox clock\)$/,
    );
    expect(live[1]).toMatch(/^→ invoice\.created attempt 2 .*: 200 in [\d.]+ ms, delivered$/);
    expect(live[2]).toMatch(/^→ invoice\.fully_paid attempt 1 .*: 200 in [\d.]+ ms, delivered$/);
    expect(out.indexOf(live[2]!)).toBeLessThan(out.search(/^delivery [0-9a-f]{32} delivered/m));
    expect(code).toBe(0);
  });

  it('stops at once when the receiver refuses connections (exit 1, long before --timeout)', async () => {
    const { server, receiver, sandbox, merchant } = await serve();
    await receiver.close(); // nothing listens on its port any more
    sandbox.modules.identities.api.updateMerchant(merchant.id, { callback_url: receiver.url });
    const { code, out } = await trigger([
      'invoice.fully_paid',
      '--url',
      server.url,
      '--token',
      TOKEN,
      '--timeout',
      '10m',
    ]);
    expect(out).toMatch(/^→ invoice\.created attempt 1 .*: no answer .*ECONNREFUSED/m);
    expect(out).toMatch(
      /^stopped waiting: the receiver at http:\/\/127\.0\.0\.1:\d+\/callbacks refuses connections \(ECONNREFUSED\); is it running\?/m,
    );
    expect(code).toBe(1); // runCli would have killed it (60 s) long before a 10 min timeout
  });

  it('names an unknown event as such, with the known ones (exit 2, one line)', async () => {
    const unknown = await trigger(['invoice.paid']);
    expect(unknown.out).toBe(
      'paysandbox trigger: unknown event "invoice.paid"; known events: invoice.created, invoice.updated, invoice.fully_paid, ' +
        'invoice.payment_reference_number_generated (paysandbox trigger --help)\n',
    );
    expect(unknown.code).toBe(2);
    const none = await trigger([]);
    expect(none.out).toMatch(/^paysandbox trigger: which event\? one of: invoice\.created, .*\n$/);
    expect(none.code).toBe(2);
  });

  it('refuses an unknown event with usage (exit 2) and a wrong control token (exit 1)', async () => {
    const { server } = await serve();
    expect((await trigger(['invoice.paid', '--url', server.url])).code).toBe(2);
    const wrong = await trigger(['invoice.fully_paid', '--url', server.url, '--token', 'nope']);
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/401/);
  });
});
