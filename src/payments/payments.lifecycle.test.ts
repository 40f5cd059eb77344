import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

async function invoice(amount: number | string = 100) {
  const res = await t.request('POST', '/v1/invoices/', {
    token: t.merchant.merchant_api_token,
    body: { amount, currency: 'PHP', external_transaction_id: `life-${t.services.ids()}` },
  });
  expect(res.status).toBe(201);
  return res.body.invoice as { id: string; expires_at: string };
}
const pay = (id: string, body: Record<string, unknown>) =>
  t.request('POST', `/_sandbox/invoices/${id}/payments`, { body });
const balance = async (accountId: string) =>
  (await t.request('GET', `/_sandbox/accounts/${accountId}`)).body.account.balance as string;
const events = (id: string) =>
  (
    t.db
      .prepare('SELECT name, payload FROM outbox_events WHERE invoice_id = ? ORDER BY seq')
      .all(id) as Array<{ name: string; payload: string }>
  ).map((e) => ({ name: e.name, data: JSON.parse(e.payload).event.data }));
const customer = () => t.fixtures.customers[0]!;
const customerWallet = () => customer().accounts[0]!.id;

describe('invoice lifecycle', () => {
  it('a partial payment leaves it pending, raises invoice.updated and lowers amount_due', async () => {
    const inv = await invoice(100);
    const res = await pay(inv.id, { collector: 'coins_peso_wallet', amount: '30.5' });
    expect(res.status).toBe(201);
    expect(res.body.invoice).toMatchObject({
      status: 'pending',
      amount_received: '30.50000000',
      amount_due: '69.50000000',
    });
    expect(res.body.invoice.expires_in_seconds).toMatch(/^\d+$/);
    const ev = events(inv.id);
    expect(ev.map((e) => e.name)).toEqual(['invoice.created', 'invoice.updated']);
    expect(ev[1]!.data).toMatchObject({
      id: inv.id,
      amount: '100',
      amount_received: '30.5',
      currency: 'PHP',
    });
    t.assertLedger();
  });

  it('full payment raises invoice.fully_paid, credits the merchant and debits the customer at once', async () => {
    const inv = await invoice(100);
    await pay(inv.id, { collector: 'coins_peso_wallet', amount: 40 });
    const res = await pay(inv.id, { collector: 'coins_peso_wallet' });
    expect(res.body.payment.amount).toBe('60.00000000');
    expect(res.body.invoice).toMatchObject({
      status: 'fully_paid',
      amount_due: '0.00000000',
      amount_received: '100.00000000',
      expires_in_seconds: null,
    });
    expect(res.body.invoice.payments.map((p: { amount: string }) => p.amount)).toEqual([
      '40.00000000',
      '60.00000000',
    ]);
    expect(events(inv.id).map((e) => e.name)).toEqual([
      'invoice.created',
      'invoice.updated',
      'invoice.fully_paid',
    ]);
    expect(await balance(t.merchant.wallet_account_id)).toBe('100.00000000');
    expect(await balance(customerWallet())).toBe('49900.00000000');
    const seen = await t.request('GET', `/v1/invoices/${inv.id}`, {
      token: t.merchant.merchant_api_token,
    });
    expect(seen.body.invoice.status).toBe('fully_paid');
    t.assertLedger();
  });

  it('records an overpayment in full, amount_due stays 0.00000000', async () => {
    const inv = await invoice(100);
    await pay(inv.id, { collector: 'coins_peso_wallet', amount: 90 });
    const over = await pay(inv.id, { collector: 'coins_peso_wallet', amount: 25 });
    expect(over.body.invoice).toMatchObject({
      status: 'fully_paid',
      amount_received: '115.00000000',
      amount_due: '0.00000000',
    });
    expect(await balance(t.merchant.wallet_account_id)).toBe('115.00000000');
    expect(events(inv.id).at(-1)!.data.amount_received).toBe('115');
    const counter = await invoice(10);
    const cash = await pay(counter.id, { collector: 'cash_payment', amount: 12 });
    expect(cash.body.invoice).toMatchObject({
      status: 'fully_paid',
      amount_received: '12.00000000',
      amount_due: '0.00000000',
    });
    t.assertLedger();
  });

  it('insufficient balance is a 400 and changes nothing at all', async () => {
    const inv = await invoice(100);
    const before = {
      merchant: await balance(t.merchant.wallet_account_id),
      customer: await balance(customerWallet()),
    };
    const res = await pay(inv.id, { collector: 'coins_peso_wallet', amount: '50000.00000001' });
    expect(res.status).toBe(400);
    expect(res.body.error_codes).toEqual(['insufficient_balance']);
    expect({
      merchant: await balance(t.merchant.wallet_account_id),
      customer: await balance(customerWallet()),
    }).toEqual(before);
    expect(events(inv.id).map((e) => e.name)).toEqual(['invoice.created']);
    const seen = await t.request('GET', `/v1/invoices/${inv.id}`, {
      token: t.merchant.merchant_api_token,
    });
    expect(seen.body.invoice).toMatchObject({
      status: 'pending',
      amount_received: '0.00000000',
      payments: [],
    });
    t.assertLedger();
  });

  it('counter flow: one reference number, one generated event, confirmation pays it', async () => {
    const inv = await invoice(100);
    const first = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.payment_reference_number_generated', invoice_id: inv.id },
    });
    const ref = first.body.invoice.current_payment_reference_number as string;
    expect(ref).toMatch(/^\d{13}$/);
    // Paying at an outlet reuses the reference already issued.
    const part = await pay(inv.id, { collector: 'seven_connect_deposit', amount: 20 });
    expect(part.body.payment).toMatchObject({
      reference_number: ref,
      payment_collector: 'seven_connect_deposit',
    });
    const confirm = await t.request('POST', '/_sandbox/otc/payments', {
      body: { reference_number: ref },
    });
    expect(confirm.status).toBe(201);
    expect(confirm.body.payment.amount).toBe('80.00000000');
    expect(confirm.body.invoice).toMatchObject({
      status: 'fully_paid',
      current_payment_reference_number: ref,
    });
    expect(events(inv.id).map((e) => e.name)).toEqual([
      'invoice.created',
      'invoice.payment_reference_number_generated',
      'invoice.updated',
      'invoice.fully_paid',
    ]);
    expect(await balance(t.merchant.wallet_account_id)).toBe('100.00000000');
    t.assertLedger();
  });

  it('expires on the sandbox clock without anyone reading it; no event by default', async () => {
    const inv = await invoice(100);
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 901 } });
    const row = t.db
      .prepare('SELECT status, updated_at, expires_at FROM invoices WHERE id = ?')
      .safeIntegers(true)
      .get(inv.id) as Record<string, unknown>;
    expect(row.status).toBe('expired');
    expect(row.updated_at).toBe(row.expires_at);
    const seen = await t.request('GET', `/v1/invoices/${inv.id}`, {
      token: t.merchant.merchant_api_token,
    });
    expect(seen.body.invoice).toMatchObject({
      status: 'expired',
      updated_at: inv.expires_at,
      expires_at: inv.expires_at,
      expires_in_seconds: null,
    });
    expect(events(inv.id).map((e) => e.name)).toEqual(['invoice.created']);
    expect((await pay(inv.id, { collector: 'coins_peso_wallet' })).status).toBe(409);
    expect((await t.request('POST', `/_sandbox/invoices/${inv.id}/cancel`)).status).toBe(409);
    t.assertLedger();
  });

  it('with expiryEvents an expiry raises invoice.updated', async () => {
    await t.close();
    t = createTestApp({ config: { expiryEvents: true } });
    const inv = await invoice(100);
    await pay(inv.id, { collector: 'coins_peso_wallet', amount: 1 });
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 901 } });
    const ev = events(inv.id);
    expect(ev.map((e) => e.name)).toEqual([
      'invoice.created',
      'invoice.updated',
      'invoice.updated',
    ]);
    expect(ev[2]!.data.amount_received).toBe('1');
  });

  it('two concurrent payments for the last peso never double-settle', async () => {
    const inv = await invoice(10);
    await pay(inv.id, { collector: 'coins_peso_wallet', amount: 9 });
    const results = await Promise.all([
      pay(inv.id, { collector: 'coins_peso_wallet', amount: 1 }),
      pay(inv.id, { collector: 'coins_peso_wallet', amount: 1 }),
      pay(inv.id, { collector: 'cash_payment', amount: 1 }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const seen = await t.request('GET', `/v1/invoices/${inv.id}`, {
      token: t.merchant.merchant_api_token,
    });
    expect(seen.body.invoice).toMatchObject({
      status: 'fully_paid',
      amount_received: '10.00000000',
    });
    expect(seen.body.invoice.payments).toHaveLength(2);
    expect(events(inv.id).filter((e) => e.name === 'invoice.fully_paid')).toHaveLength(1);
    expect(await balance(t.merchant.wallet_account_id)).toBe('10.00000000');
    t.assertLedger();
  });

  it('concurrent full payments through both collectors settle exactly once', async () => {
    const inv = await invoice(50);
    const results = await Promise.all([
      pay(inv.id, { collector: 'coins_peso_wallet' }),
      pay(inv.id, { collector: 'cash_payment' }),
      t.request('POST', '/_sandbox/trigger', {
        body: { event: 'invoice.fully_paid', invoice_id: inv.id },
      }),
    ]);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(2);
    expect(await balance(t.merchant.wallet_account_id)).toBe('50.00000000');
    t.assertLedger();
  });
});
