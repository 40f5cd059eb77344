import { expect } from 'vitest';
import type { TestApp } from './test-app.js';

/**
 * Helpers of the invoice control tests (invoice-control, otc-payments, invoice-expire-cancel and
 * trigger-event .test.ts), on the test's current app.
 */
export function invoiceControlHelpers(app: () => TestApp) {
  async function invoice(
    over: Record<string, unknown> = {},
    token = app().merchant.merchant_api_token,
  ) {
    const res = await app().request('POST', '/v1/invoices/', {
      token,
      body: {
        amount: 100,
        currency: 'PHP',
        external_transaction_id: `ext-${app().services.ids()}`,
        ...over,
      },
    });
    expect(res.status).toBe(201);
    return res.body.invoice as { id: string; amount: string; expires_at: string };
  }
  const pay = (id: string, body: Record<string, unknown>) =>
    app().request('POST', `/_sandbox/invoices/${id}/payments`, { body });
  const eventNames = (id: string) =>
    (
      app()
        .db.prepare('SELECT name FROM outbox_events WHERE invoice_id = ? ORDER BY seq')
        .all(id) as Array<{ name: string }>
    ).map((e) => e.name);
  const paymentCount = () =>
    (app().db.prepare('SELECT COUNT(*) AS n FROM payments').get() as { n: number }).n;
  return { invoice, pay, eventNames, paymentCount };
}
