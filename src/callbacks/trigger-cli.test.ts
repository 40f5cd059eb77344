import { afterEach, describe, expect, it } from 'vitest';
import { startMerchantReceiver, type ReceiverOptions } from '../../examples/merchant-callback/server.js';
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
  const receiver = await startMerchantReceiver({ token: merchant.merchant_api_token, port: 0, ...o.receiver });
  sandbox.services.identities.updateMerchant(merchant.id, { callback_url: receiver.url });
  const server = await listen(sandbox);
  sandbox.startBackground();
  cleanups.push(() => receiver.close(), () => sandbox.close(), () => server.stop());
  return { sandbox, server, receiver, merchant };
}

/** Run `paysandbox trigger …` as a user would, in a child process (bounded by --timeout). */
const trigger = (args: string[]) => runCli(['trigger', ...args], { env: { SANDBOX_CONTROL_TOKEN: '' } });

describe('paysandbox trigger', () => {
  it('makes invoice.fully_paid happen, waits for the callback and prints the receiver answer', async () => {
    const { server, receiver } = await serve();
    const { code, out } = await trigger(['invoice.fully_paid', '--url', server.url, '--token', TOKEN]);
    expect(out).toMatch(/^invoice\.fully_paid on invoice [0-9a-f]{32} \(status fully_paid, amount_received \d+\.\d{8}\)$/m);
    expect(out).toMatch(/^delivery [0-9a-f]{32} delivered after 1 attempt\(s\) to http:\/\/127\.0\.0\.1:\d+\/callbacks$/m);
    expect(out).toMatch(/^ {2}attempt 1 {2}200 .* receiver answered: OK$/m);
    expect(code).toBe(0);
    const names = receiver.received.map((r) => r.event?.event.name);
    expect(names).toEqual(['invoice.created', 'invoice.fully_paid']);
  });

  it('waits for the new delivery of an event the invoice already had', async () => {
    const { server, sandbox, merchant } = await serve();
    const row = sandbox.services.identities.merchantById(merchant.id)!;
    const inv = sandbox.services.invoices.create(row, { amount: '20', currency: 'PHP', external_transaction_id: 'cli-partial' });
    const first = await trigger(['invoice.updated', '--invoice', inv.id, '--url', server.url, '--token', TOKEN]);
    expect(first.out).toMatch(/amount_received 10\.00000000/);
    const second = await trigger(['invoice.updated', '--invoice', inv.id, '--url', server.url, '--token', TOKEN]);
    expect(second.out).toMatch(/amount_received 15\.00000000/);
    expect(second.code).toBe(0);
    const ids = [first.out, second.out].map((o) => /^delivery ([0-9a-f]{32}) delivered/m.exec(o)?.[1]);
    expect(ids[0]).toBeDefined();
    expect(ids[1]).toBeDefined();
    expect(ids[1]).not.toBe(ids[0]);
  });

  it('exits 1 with the attempts when the delivery fails', async () => {
    const { server } = await serve({ config: { retrySchedule: [] }, receiver: { respond: () => ({ status: 500, body: 'down for maintenance' }) } });
    const { code, out } = await trigger(['invoice.fully_paid', '--url', server.url, '--token', TOKEN]);
    expect(out).toMatch(/^delivery [0-9a-f]{32} failed after 1 attempt\(s\)/m);
    expect(out).toMatch(/attempt 1 {2}500 .* receiver answered 500 {2}receiver answered: down for maintenance/);
    expect(code).toBe(1);
  });

  it('exits 1 at --timeout while the delivery is still retrying', async () => {
    const { server } = await serve({ receiver: { respond: () => ({ status: 503 }) } });
    const { code, out } = await trigger(['invoice.fully_paid', '--url', server.url, '--token', TOKEN, '--timeout', '1s']);
    // invoice.created failed first, so invoice.fully_paid waits for it (per-invoice order).
    expect(out).toMatch(/^delivery [0-9a-f]{32} pending after 0 attempt\(s\)/m);
    expect(out).toMatch(/^ {2}waiting for the earlier invoice\.created \(delivery [0-9a-f]{32}, pending, 1 attempt\(s\): receiver answered 503\)$/m);
    expect(out).toMatch(/^still pending at the timeout/m);
    expect(code).toBe(1);
  });

  it('refuses an unknown event with usage (exit 2) and a wrong control token (exit 1)', async () => {
    const { server } = await serve();
    expect((await trigger(['invoice.paid', '--url', server.url])).code).toBe(2);
    const wrong = await trigger(['invoice.fully_paid', '--url', server.url, '--token', 'nope']);
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/401/);
  });
});
