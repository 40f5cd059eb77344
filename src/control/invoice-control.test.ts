import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

async function invoice(over: Record<string, unknown> = {}, token = t.merchant.merchant_api_token) {
  const res = await t.request('POST', '/v1/invoices/', {
    token,
    body: { amount: 100, currency: 'PHP', external_transaction_id: `ext-${t.services.ids()}`, ...over },
  });
  expect(res.status).toBe(201);
  return res.body.invoice as { id: string; amount: string; expires_at: string };
}
const pay = (id: string, body: Record<string, unknown>) => t.request('POST', `/_sandbox/invoices/${id}/payments`, { body });
const eventNames = (id: string) =>
  (t.db.prepare('SELECT name FROM outbox_events WHERE invoice_id = ? ORDER BY seq').all(id) as Array<{ name: string }>).map((e) => e.name);
const paymentCount = () => (t.db.prepare('SELECT COUNT(*) AS n FROM payments').get() as { n: number }).n;

describe('POST /_sandbox/invoices/{id}/payments (payInvoice)', () => {
  it('pays the amount due from the first fixture customer by default', async () => {
    const inv = await invoice();
    const res = await pay(inv.id, { collector: 'coins_peso_wallet' });
    expect(res.status).toBe(201);
    expect(res.body.payment).toMatchObject({ amount: '100.00000000', payment_collector: 'coins_peso_wallet', reference_number: null });
    expect(res.body.invoice).toMatchObject({ status: 'fully_paid', amount_due: '0.00000000', amount_received: '100.00000000' });
    const customer = await t.request('GET', `/_sandbox/accounts/${t.fixtures.customers[0]!.accounts[0]!.id}`);
    expect(customer.body.account.balance).toBe('49900.00000000');
    t.assertLedger();
  });

  it('takes the customer by email, mobile number or id', async () => {
    const c = t.fixtures.customers[1]!;
    for (const login of [c.email, c.mobile_number, c.id]) {
      const inv = await invoice({ amount: 1 });
      const res = await pay(inv.id, { collector: 'coins_peso_wallet', customer: login });
      expect(res.status, login).toBe(201);
    }
    const account = await t.request('GET', `/_sandbox/accounts/${c.accounts[0]!.id}`);
    expect(account.body.account.balance).toBe('19997.00000000');
    t.assertLedger();
  });

  it('pays over the counter with cash_payment or an outlet collector, issuing a reference number', async () => {
    for (const collector of ['cash_payment', 'seven_connect_deposit', 'bayad_deposit']) {
      const inv = await invoice();
      const res = await pay(inv.id, { collector, amount: '40' });
      expect(res.status, collector).toBe(201);
      expect(res.body.payment.payment_collector).toBe(collector);
      expect(res.body.payment.reference_number).toMatch(/^\d{13}$/);
      expect(res.body.invoice.current_payment_reference_number).toBe(res.body.payment.reference_number);
      expect(res.body.invoice).toMatchObject({ status: 'pending', amount_due: '60.00000000' });
      expect(eventNames(inv.id)).toEqual(['invoice.created', 'invoice.payment_reference_number_generated', 'invoice.updated']);
    }
    t.assertLedger();
  });

  it('refuses an unknown collector with a field error and changes nothing', async () => {
    const inv = await invoice();
    const res = await pay(inv.id, { collector: 'bitcoin' });
    expect(res.status).toBe(400);
    expect(res.body.error_codes).toEqual(['validation_error']);
    expect(res.body.errors.collector[0]).toMatch(/not a payment collector/);
    expect(paymentCount()).toBe(0);
  });

  it('refuses a collector the invoice does not offer', async () => {
    const inv = await invoice({ supported_payment_collectors: ['cash_payment'] });
    const res = await pay(inv.id, { collector: 'coins_peso_wallet' });
    expect(res.status).toBe(400);
    expect(res.body.errors.collector).toBeDefined();
  });

  it.each([['0'], [-1], ['1e2'], ['1.123456789'], ['abc'], [true]])('refuses amount %j with 400 on amount', async (amount) => {
    const inv = await invoice();
    const res = await pay(inv.id, { collector: 'coins_peso_wallet', amount });
    expect(res.status).toBe(400);
    expect(res.body.errors.amount).toBeDefined();
    expect(paymentCount()).toBe(0);
  });

  it('refuses an absurdly large counter amount with a field error, not a 500', async () => {
    const inv = await invoice();
    const res = await pay(inv.id, { collector: 'cash_payment', amount: '99999999999' });
    expect(res.status).toBe(400);
    expect(res.body.errors.amount).toBeDefined();
  });

  it('answers 404 for an unknown invoice, 400 for an unknown customer, 400 when required fields are missing', async () => {
    expect((await pay('0'.repeat(32), { collector: 'coins_peso_wallet' })).status).toBe(404);
    const inv = await invoice();
    const nobody = await pay(inv.id, { collector: 'coins_peso_wallet', customer: 'nobody@example.com' });
    expect(nobody.status).toBe(400);
    expect(nobody.body.errors.customer).toEqual(['No customer "nobody@example.com".']);
    const missing = await pay(inv.id, {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors.collector).toEqual(['This field is required.']);
  });

  it('answers 409 invoice_not_payable on a paid, expired or canceled invoice', async () => {
    const paid = await invoice();
    await pay(paid.id, { collector: 'coins_peso_wallet' });
    const again = await pay(paid.id, { collector: 'coins_peso_wallet' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error_codes: ['invoice_not_payable'], errors: { non_field_errors: ['Invoice is fully_paid and cannot be paid.'] } });
    const canceled = await invoice();
    await t.request('POST', `/_sandbox/invoices/${canceled.id}/cancel`);
    expect((await pay(canceled.id, { collector: 'cash_payment' })).status).toBe(409);
    const expired = await invoice();
    t.advance(901);
    expect((await pay(expired.id, { collector: 'coins_peso_wallet' })).body.error_codes).toEqual(['invoice_not_payable']);
    expect(paymentCount()).toBe(1);
    t.assertLedger();
  });

  it('refuses a payment above the customer balance with 400 and changes nothing', async () => {
    const poor = t.fixtures.customers.find((c) => c.accounts[0]!.balance === '25')!;
    const inv = await invoice({ amount: 26 });
    const res = await pay(inv.id, { collector: 'coins_peso_wallet', customer: poor.email });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error_codes: ['insufficient_balance'], errors: { non_field_errors: ['Insufficient balance.'] } });
    expect(eventNames(inv.id)).toEqual(['invoice.created']);
    const account = await t.request('GET', `/_sandbox/accounts/${poor.accounts[0]!.id}`);
    expect(account.body.account.balance).toBe('25.00000000');
    t.assertLedger();
  });
});

describe('POST /_sandbox/otc/payments (confirmCounterPayment)', () => {
  async function reference(amount = 100) {
    const inv = await invoice({ amount });
    const res = await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.payment_reference_number_generated', invoice_id: inv.id } });
    expect(res.status).toBe(201);
    return { id: inv.id, ref: res.body.invoice.current_payment_reference_number as string };
  }

  it('confirms the amount due by default and marks the invoice paid', async () => {
    const { id, ref } = await reference();
    const res = await t.request('POST', '/_sandbox/otc/payments', { body: { reference_number: ref } });
    expect(res.status).toBe(201);
    expect(res.body.payment).toMatchObject({ amount: '100.00000000', payment_collector: 'cash_payment', reference_number: ref });
    expect(res.body.invoice.status).toBe('fully_paid');
    expect(eventNames(id)).toEqual(['invoice.created', 'invoice.payment_reference_number_generated', 'invoice.fully_paid']);
    t.assertLedger();
  });

  it('takes part payments against the same reference, then refuses once paid', async () => {
    const { ref } = await reference();
    const part = await t.request('POST', '/_sandbox/otc/payments', { body: { reference_number: ref, amount: 30 } });
    expect(part.body.invoice).toMatchObject({ status: 'pending', amount_due: '70.00000000' });
    const rest = await t.request('POST', '/_sandbox/otc/payments', { body: { reference_number: ref, amount: '70' } });
    expect(rest.body.invoice.status).toBe('fully_paid');
    const again = await t.request('POST', '/_sandbox/otc/payments', { body: { reference_number: ref } });
    expect(again.status).toBe(409);
    expect(again.body.error_codes).toEqual(['invoice_not_payable']);
    t.assertLedger();
  });

  it('answers 404 for an unknown reference and 400 for a bad amount or missing reference', async () => {
    expect((await t.request('POST', '/_sandbox/otc/payments', { body: { reference_number: '1234567890123' } })).status).toBe(404);
    const { ref } = await reference();
    const bad = await t.request('POST', '/_sandbox/otc/payments', { body: { reference_number: ref, amount: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.amount).toBeDefined();
    const missing = await t.request('POST', '/_sandbox/otc/payments', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.reference_number).toBeDefined();
  });
});

describe('expire and cancel', () => {
  it('expire moves a pending invoice now, without an event by default', async () => {
    const inv = await invoice();
    const res = await t.request('POST', `/_sandbox/invoices/${inv.id}/expire`);
    expect(res.status).toBe(200);
    expect(res.body.invoice).toMatchObject({ status: 'expired', expires_in_seconds: null });
    expect(eventNames(inv.id)).toEqual(['invoice.created']);
  });

  it('cancel moves a pending invoice and refuses everything that is not pending with 409', async () => {
    const inv = await invoice();
    const res = await t.request('POST', `/_sandbox/invoices/${inv.id}/cancel`);
    expect(res.body.invoice.status).toBe('canceled');
    for (const action of ['cancel', 'expire']) {
      const again = await t.request('POST', `/_sandbox/invoices/${inv.id}/${action}`);
      expect(again.status).toBe(409);
      expect(again.body.error_codes).toEqual(['invalid_state_transition']);
    }
  });

  it('refuses to cancel an invoice that expired on the clock, and to expire a paid one', async () => {
    const a = await invoice();
    t.advance(900);
    const cancel = await t.request('POST', `/_sandbox/invoices/${a.id}/cancel`);
    expect(cancel.status).toBe(409);
    expect(cancel.body.errors.non_field_errors[0]).toMatch(/expired/);
    const b = await invoice();
    await pay(b.id, { collector: 'coins_peso_wallet' });
    expect((await t.request('POST', `/_sandbox/invoices/${b.id}/expire`)).status).toBe(409);
  });

  it('answers 404 for unknown invoices', async () => {
    for (const action of ['cancel', 'expire']) {
      expect((await t.request('POST', `/_sandbox/invoices/${'f'.repeat(32)}/${action}`)).status).toBe(404);
    }
  });

  it('emits invoice.updated on expiry and cancellation only with expiryEvents', async () => {
    await t.close();
    t = createTestApp({ config: { expiryEvents: true } });
    const a = await invoice();
    await t.request('POST', `/_sandbox/invoices/${a.id}/cancel`);
    expect(eventNames(a.id)).toEqual(['invoice.created', 'invoice.updated']);
  });
});

describe('POST /_sandbox/trigger (triggerEvent)', () => {
  it('invoice.created without an id creates an invoice for the first merchant', async () => {
    const res = await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.created' } });
    expect(res.status).toBe(201);
    expect(res.body.event).toBe('invoice.created');
    expect(res.body.invoice).toMatchObject({ status: 'pending', amount: '100.00000000', receiver: t.merchant.wallet_account_id });
    expect(res.body.invoice.external_transaction_id).toMatch(/^trigger-[0-9a-f]{32}$/);
    expect(res.body.payment).toBeUndefined();
    const seen = await t.request('GET', `/v1/invoices/${res.body.invoice.id}`, { token: t.merchant.merchant_api_token });
    expect(seen.status).toBe(200);
  });

  it('invoice.created with an id is a field error', async () => {
    const inv = await invoice();
    const res = await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.created', invoice_id: inv.id } });
    expect(res.status).toBe(400);
    expect(res.body.errors.invoice_id).toBeDefined();
  });

  it('invoice.updated pays half the amount due; fully_paid pays the rest', async () => {
    const inv = await invoice({ amount: '10.00000001' });
    const part = await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.updated', invoice_id: inv.id } });
    expect(part.status).toBe(201);
    expect(part.body.payment.amount).toBe('5.00000000');
    expect(part.body.invoice).toMatchObject({ status: 'pending', amount_due: '5.00000001' });
    const full = await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.fully_paid', invoice_id: inv.id } });
    expect(full.body.payment.amount).toBe('5.00000001');
    expect(full.body.invoice.status).toBe('fully_paid');
    expect(eventNames(inv.id)).toEqual(['invoice.created', 'invoice.updated', 'invoice.fully_paid']);
    t.assertLedger();
  });

  it('refuses a partial payment when only one unit is due', async () => {
    const inv = await invoice({ amount: '1.00000001' });
    await pay(inv.id, { collector: 'coins_peso_wallet', amount: 1 });
    const res = await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.updated', invoice_id: inv.id } });
    expect(res.status).toBe(409);
    expect(res.body.errors.non_field_errors[0]).toMatch(/Only 0\.00000001 PHP is due/);
  });

  it('without an id creates an invoice and acts on it, in one go', async () => {
    for (const event of ['invoice.updated', 'invoice.fully_paid', 'invoice.payment_reference_number_generated']) {
      const res = await t.request('POST', '/_sandbox/trigger', { body: { event } });
      expect(res.status, event).toBe(201);
      expect(eventNames(res.body.invoice.id)).toEqual(['invoice.created', event]);
    }
    t.assertLedger();
  });

  it('issues a reference number once; a second trigger is a 409', async () => {
    const inv = await invoice();
    const first = await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.payment_reference_number_generated', invoice_id: inv.id } });
    expect(first.body.invoice.current_payment_reference_number).toMatch(/^\d{13}$/);
    const second = await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.payment_reference_number_generated', invoice_id: inv.id } });
    expect(second.status).toBe(409);
    expect(eventNames(inv.id)).toEqual(['invoice.created', 'invoice.payment_reference_number_generated']);
  });

  it('pays over the counter when the wallet cannot cover the amount', async () => {
    const inv = await invoice({ amount: 10000 });
    // Drain the default payer's 50000 PHP, so the trigger must take the counter.
    for (let i = 0; i < 5; i++) {
      const drain = await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.fully_paid', invoice_id: (await invoice({ amount: 10000 })).id } });
      expect(drain.body.payment.payment_collector).toBe('coins_peso_wallet');
    }
    const res = await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.fully_paid', invoice_id: inv.id } });
    expect(res.status).toBe(201);
    expect(res.body.payment.payment_collector).toBe('cash_payment');
    t.assertLedger();
  });

  it('answers 404 for an unknown id, 409 for a non-pending invoice, 400 for an unknown event', async () => {
    expect((await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.fully_paid', invoice_id: 'a'.repeat(32) } })).status).toBe(404);
    const inv = await invoice();
    await t.request('POST', `/_sandbox/invoices/${inv.id}/cancel`);
    const res = await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.updated', invoice_id: inv.id } });
    expect(res.status).toBe(409);
    const bad = await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.deleted' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.event).toBeDefined();
  });
});
