import { afterEach } from 'vitest';
import { until } from '../callbacks/callbacks.test-support.js';
import type { DeliveryRow } from '../callbacks/deliveries.repo.js';
import { itemAt, required } from '../shared/defined.js';
import {
  appWithReceiverSetup,
  type AppWithReceiver,
  type AppWithReceiverOptions,
} from './receiver-app.test-support.js';

/**
 * Test support for the callback delivery tests (delivery*.test.ts, imported by *.test.ts only): for
 * the calling file, a `setup` that starts a sandbox whose dispatcher delivers the first merchant's
 * callbacks to a live receiver (retrying after 10, 60 and 300 s unless told otherwise), hands it to
 * `use`, and closes it after the test; and reads of what the dispatcher wrote.
 */
export function deliveryHarness(use: (started: AppWithReceiver) => void) {
  const start = appWithReceiverSetup();
  /** More to close after the test (after the sandbox and the receiver), last pushed first. */
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  let current: AppWithReceiver | undefined;
  const app = () => required(current, 'a sandbox started by setup()').t;

  async function setup(o: AppWithReceiverOptions = {}) {
    current = await start({ ...o, config: { retrySchedule: [10, 60, 300], ...o.config } });
    use(current);
  }

  function setMerchant(fields: {
    callback_url?: string | null;
    callback_auth?: 'https-only' | 'always' | 'never';
  }) {
    app().services.identities.updateMerchant(app().merchant.id, fields);
  }

  let ext = 0;
  function createInvoice(amount = '20') {
    const s = app().services;
    const merchant = required(s.identities.merchantById(app().merchant.id), 'the first merchant');
    return s.invoices.create(merchant, {
      amount,
      currency: 'PHP',
      external_transaction_id: `cb-${++ext}`,
    });
  }

  const deliveries = (invoiceId: string) =>
    app()
      .db.prepare('SELECT * FROM deliveries WHERE invoice_id = ? ORDER BY seq')
      .all(invoiceId) as DeliveryRow[];
  const outbox = (invoiceId: string) =>
    app()
      .db.prepare('SELECT id, name, payload FROM outbox_events WHERE invoice_id = ? ORDER BY seq')
      .all(invoiceId) as Array<{ id: string; name: string; payload: string }>;

  /** Wait, bounded, until the invoice has `n` deliveries, all `status`. */
  const settled = (invoiceId: string, n: number, status = 'delivered') =>
    until(
      () => deliveries(invoiceId),
      (ds) => ds.length === n && ds.every((d) => d.status === status),
      `${n} ${status}`,
    );

  /** Wait, bounded, until the invoice's first delivery has made one attempt that failed; that delivery. */
  const failedOnce = async (invoiceId: string, what: string) =>
    itemAt(
      await until(
        () => deliveries(invoiceId),
        (ds) => ds[0]?.attempts_count === 1 && ds[0].status === 'pending',
        what,
      ),
      0,
    );

  /** Move the sandbox clock and run what is due (as `POST /_sandbox/clock/advance` does). */
  function advance(seconds: number) {
    app().advance(seconds);
    app().sandbox.tick();
  }

  return {
    setup,
    cleanups,
    setMerchant,
    createInvoice,
    deliveries,
    outbox,
    settled,
    failedOnce,
    advance,
  };
}
