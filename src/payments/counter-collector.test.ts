import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

it('records the outlet a reference was issued for when the outlet confirms it', async () => {
  const inv = (
    await t.request('POST', '/v1/invoices/', {
      token: t.otherMerchant.merchant_api_token,
      body: {
        amount: 50,
        currency: 'PHP',
        external_transaction_id: 'seven-only',
        supported_payment_collectors: ['seven_connect_deposit'],
      },
    })
  ).body.invoice;
  const { reference_number } = t.services.payments.issueReference(inv.id, 'seven_connect_deposit');
  const paid = await t.request('POST', '/_sandbox/otc/payments', { body: { reference_number } });
  expect(paid.status).toBe(201);
  expect(paid.body.payment).toMatchObject({
    payment_collector: 'seven_connect_deposit',
    reference_number,
    amount: '50.00000000',
  });
  expect(paid.body.invoice.payments[0].payment_collector).toBe('seven_connect_deposit');
  expect(paid.body.invoice.supported_payment_collectors).toContain(
    paid.body.payment.payment_collector,
  );
  t.assertLedger();
});
