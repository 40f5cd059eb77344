import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import {
  startMerchantReceiver,
  type ReceiverOptions,
} from '../../examples/merchant-callback/server.js';
import { createSandbox, sharedSpec, type Sandbox } from '../sandbox.js';
import { createTestApp } from '../testing/test-app.js';
import { until } from './callbacks.test-support.js';
import { INTERRUPTED } from './delivery.dispatcher.js';

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function receiverFor(sandbox: Sandbox, o: Partial<ReceiverOptions> = {}) {
  const merchant = sandbox.fixtures.merchants[0]!;
  const r = await startMerchantReceiver({ token: merchant.merchant_api_token, port: 0, ...o });
  cleanups.push(() => r.close());
  sandbox.modules.identities.api.updateMerchant(merchant.id, { callback_url: r.url });
  return r;
}

it('a clean stop puts in-flight callbacks back to pending, and the next start delivers them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'paysandbox-restart-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'sandbox.db');
  const open = () => createSandbox({ spec: sharedSpec(), config: { db, quiet: true } });

  const first = open();
  const hanging = await receiverFor(first, { respond: () => ({ hang: true }) });
  first.startBackground();
  const merchant = first.modules.identities.api.merchantById(first.fixtures.merchants[0]!.id)!;
  const inv = first.modules.invoices.api.create(merchant, {
    amount: '20',
    currency: 'PHP',
    external_transaction_id: 'restart-1',
  });
  await until(
    () => hanging.received.length,
    (n) => n === 1,
    'the callback in flight',
  );
  await first.close();

  const second = open();
  cleanups.push(() => second.close());
  const row = () =>
    second.services.db.prepare('SELECT * FROM deliveries WHERE invoice_id = ?').get(inv.id) as {
      id: string;
      status: string;
    };
  expect(row().status).toBe('pending');
  const attempts = () =>
    second.services.db
      .prepare('SELECT attempt, error, status_code FROM delivery_attempts WHERE delivery_id = ?')
      .all(row().id);
  expect(attempts()).toEqual([{ attempt: 1, error: INTERRUPTED, status_code: null }]);

  const up = await receiverFor(second);
  second.startBackground();
  await until(row, (d) => d.status === 'delivered', 'the delivery after restart');
  expect(up.received.map((r) => r.attempt)).toEqual(['2']);
  expect(up.received[0]!.eventId).toBe(hanging.received[0]!.eventId);
});

it('keeps delivering after POST /_sandbox/reset wiped the data', async () => {
  const t = createTestApp();
  cleanups.push(() => t.close());
  const r = await receiverFor(t.sandbox);
  t.sandbox.startBackground();
  const create = (ext: string) =>
    t.services.invoices.create(t.services.identities.merchantById(t.merchant.id)!, {
      amount: '20',
      currency: 'PHP',
      external_transaction_id: ext,
    });
  create('before-reset');
  await r.waitFor(() => true);
  expect((await t.request('POST', '/_sandbox/reset')).status).toBeLessThan(300);
  t.services.identities.updateMerchant(t.merchant.id, { callback_url: r.url });
  const inv = create('after-reset');
  await r.waitFor((cb) => cb.event?.event.data.id === inv.id);
  const list = await t.request(
    'GET',
    `/_sandbox/deliveries?invoice_id=${inv.id}&status=delivered&wait=10`,
  );
  expect(list.body.meta.total_count).toBe(1);
  expect((await t.request('GET', '/_sandbox/deliveries')).body.meta.total_count).toBe(1);
});
