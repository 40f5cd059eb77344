import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { invoiceControlHelpers } from '../testing/invoice-control.test-support.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const { invoice, pay, eventNames } = invoiceControlHelpers(() => t);

describe('POST /_sandbox/trigger (triggerEvent)', () => {
  it('invoice.created without an id creates an invoice for the first merchant', async () => {
    const res = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.created' },
    });
    expect(res.status).toBe(201);
    expect(res.body.event).toBe('invoice.created');
    expect(res.body.invoice).toMatchObject({
      status: 'pending',
      amount: '100.00000000',
      receiver: t.merchant.wallet_account_id,
    });
    expect(res.body.invoice.external_transaction_id).toMatch(/^trigger-[0-9a-f]{32}$/);
    expect(res.body.payment).toBeUndefined();
    const seen = await t.request('GET', `/v1/invoices/${res.body.invoice.id}`, {
      token: t.merchant.merchant_api_token,
    });
    expect(seen.status).toBe(200);
  });

  it('invoice.created with an id is a field error', async () => {
    const inv = await invoice();
    const res = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.created', invoice_id: inv.id },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error_codes: ['validation_error'],
      errors: { invoice_id: ['invoice.created makes a new invoice: leave out invoice_id.'] },
    });
  });

  it('invoice.updated pays half the amount due; fully_paid pays the rest', async () => {
    const inv = await invoice({ amount: '10.00000001' });
    const part = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.updated', invoice_id: inv.id },
    });
    expect(part.status).toBe(201);
    expect(part.body.payment.amount).toBe('5.00000000');
    expect(part.body.invoice).toMatchObject({ status: 'pending', amount_due: '5.00000001' });
    const full = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.fully_paid', invoice_id: inv.id },
    });
    expect(full.body.payment.amount).toBe('5.00000001');
    expect(full.body.invoice.status).toBe('fully_paid');
    expect(eventNames(inv.id)).toEqual([
      'invoice.created',
      'invoice.updated',
      'invoice.fully_paid',
    ]);
    t.assertLedger();
  });

  it('refuses a partial payment when only one unit is due', async () => {
    const inv = await invoice({ amount: '1.00000001' });
    await pay(inv.id, { collector: 'coins_peso_wallet', amount: 1 });
    const res = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.updated', invoice_id: inv.id },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error_codes: ['invalid_state_transition'],
      errors: {
        non_field_errors: [
          'Only 0.00000001 PHP is due: a partial payment would leave nothing due. Trigger invoice.fully_paid instead.',
        ],
      },
    });
  });

  it('without an id creates an invoice and acts on it, in one go', async () => {
    for (const event of [
      'invoice.updated',
      'invoice.fully_paid',
      'invoice.payment_reference_number_generated',
    ]) {
      const res = await t.request('POST', '/_sandbox/trigger', { body: { event } });
      expect(res.status, event).toBe(201);
      expect(eventNames(res.body.invoice.id)).toEqual(['invoice.created', event]);
    }
    t.assertLedger();
  });

  it('issues a reference number once; a second trigger is a 409', async () => {
    const inv = await invoice();
    const first = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.payment_reference_number_generated', invoice_id: inv.id },
    });
    expect(first.body.invoice.current_payment_reference_number).toMatch(/^\d{13}$/);
    const second = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.payment_reference_number_generated', invoice_id: inv.id },
    });
    expect(second.status).toBe(409);
    const issued = first.body.invoice.current_payment_reference_number;
    expect(second.body).toEqual({
      error_codes: ['invalid_state_transition'],
      errors: {
        non_field_errors: [
          `Reference number ${issued} was already issued for this invoice; it is issued once.`,
        ],
      },
    });
    expect(eventNames(inv.id)).toEqual([
      'invoice.created',
      'invoice.payment_reference_number_generated',
    ]);
  });

  it('pays over the counter when the wallet cannot cover the amount', async () => {
    const inv = await invoice({ amount: 10000 });
    // Drain the default payer's 50000 PHP, so the trigger must take the counter.
    for (let i = 0; i < 5; i++) {
      const drain = await t.request('POST', '/_sandbox/trigger', {
        body: { event: 'invoice.fully_paid', invoice_id: (await invoice({ amount: 10000 })).id },
      });
      expect(drain.body.payment.payment_collector).toBe('coins_peso_wallet');
    }
    const res = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.fully_paid', invoice_id: inv.id },
    });
    expect(res.status).toBe(201);
    expect(res.body.payment.payment_collector).toBe('cash_payment');
    t.assertLedger();
  });

  it('answers 404 for an unknown id, 409 for a non-pending invoice, 400 for an unknown event', async () => {
    const unknown = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.fully_paid', invoice_id: 'a'.repeat(32) },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error_codes: ['not_found'],
      errors: { non_field_errors: ['Not found.'] },
    });
    const inv = await invoice();
    await t.request('POST', `/_sandbox/invoices/${inv.id}/cancel`);
    const res = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.updated', invoice_id: inv.id },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error_codes: ['invoice_not_payable'],
      errors: { non_field_errors: ['Invoice is canceled and cannot be paid.'] },
    });
    const bad = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.deleted' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error_codes: ['validation_error'],
      errors: { event: ['"invoice.deleted" is not a valid choice.'] },
    });
  });
});
