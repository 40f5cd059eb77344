import { describe, expect, it } from 'vitest';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import { controlError } from '../testing/error-code.js';
import { invoiceControlHelpers } from '../testing/invoice-control.test-support.js';

let t: TestApp;
appPerTest((app) => (t = app));

const { invoice, pay, eventNames, paymentCount } = invoiceControlHelpers(() => t);

describe('POST /_sandbox/invoices/{id}/payments (payInvoice)', () => {
  it('pays the amount due from the first fixture customer by default', async () => {
    const inv = await invoice();
    const res = await pay(inv.id, { collector: 'coins_peso_wallet' });
    expect(res.status).toBe(201);
    expect(res.body.payment).toMatchObject({
      amount: '100.00000000',
      payment_collector: 'coins_peso_wallet',
      reference_number: null,
    });
    expect(res.body.invoice).toMatchObject({
      status: 'fully_paid',
      amount_due: '0.00000000',
      amount_received: '100.00000000',
    });
    const customer = await t.request(
      'GET',
      `/_sandbox/accounts/${t.fixtures.customers[0]!.accounts[0]!.id}`,
    );
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
      expect(res.body.invoice.current_payment_reference_number).toBe(
        res.body.payment.reference_number,
      );
      expect(res.body.invoice).toMatchObject({ status: 'pending', amount_due: '60.00000000' });
      expect(eventNames(inv.id)).toEqual([
        'invoice.created',
        'invoice.payment_reference_number_generated',
        'invoice.updated',
      ]);
    }
    t.assertLedger();
  });

  it('refuses an unknown collector with a field error and changes nothing', async () => {
    const inv = await invoice();
    const res = await pay(inv.id, { collector: 'bitcoin' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      controlError('validation_error', {
        collector: [
          '"bitcoin" is not a payment collector; use coins_peso_wallet or an over-the-counter one ' +
            '(cash_payment, seven_connect_deposit, mlhuillier_deposit, cebuana_lhuillier_deposit, bayad_deposit, palawan_deposit).',
        ],
      }),
    );
    expect(paymentCount()).toBe(0);
  });

  it('refuses a collector the invoice does not offer', async () => {
    const inv = await invoice({ supported_payment_collectors: ['cash_payment'] });
    const res = await pay(inv.id, { collector: 'coins_peso_wallet' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      controlError('validation_error', {
        collector: ['"coins_peso_wallet" is not a payment option of this invoice (cash_payment).'],
      }),
    );
    // cash_payment stands for the four documented outlets, not Palawan (older lists only).
    const palawan = await pay(inv.id, { collector: 'palawan_deposit' });
    expect(palawan.status).toBe(400);
    expect(palawan.body).toEqual(
      controlError('validation_error', {
        collector: ['"palawan_deposit" is not a payment option of this invoice (cash_payment).'],
      }),
    );
    expect(paymentCount()).toBe(0);
    expect((await pay(inv.id, { collector: 'bayad_deposit', amount: 1 })).status).toBe(201);
  });

  it.each([
    ['0', 'Ensure this value is greater than 0.'],
    [-1, 'Ensure this value is greater than 0.'],
    ['1e2', 'A valid number is required.'],
    ['1.123456789', 'Ensure that there are no more than 8 decimal places.'],
    ['abc', 'A valid number is required.'],
    [true, 'A valid number is required.'],
  ])('refuses amount %j with 400 on amount: %s', async (amount, message) => {
    const inv = await invoice();
    const res = await pay(inv.id, { collector: 'coins_peso_wallet', amount });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(controlError('validation_error', { amount: [message] }));
    expect(paymentCount()).toBe(0);
  });

  it('refuses an absurdly large counter amount with a field error, not a 500', async () => {
    const inv = await invoice();
    const res = await pay(inv.id, { collector: 'cash_payment', amount: '99999999999' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      controlError('validation_error', {
        amount: ['Ensure this value is less than or equal to 10000000000.'],
      }),
    );
    expect(paymentCount()).toBe(0);
  });

  it('answers 404 for an unknown invoice, 400 for an unknown customer, 400 when required fields are missing', async () => {
    const unknown = await pay('0'.repeat(32), { collector: 'coins_peso_wallet' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(controlError('not_found', { non_field_errors: ['Not found.'] }));
    const inv = await invoice();
    const nobody = await pay(inv.id, {
      collector: 'coins_peso_wallet',
      customer: 'nobody@example.com',
    });
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
    expect(again.body).toEqual(
      controlError('invoice_not_payable', {
        non_field_errors: ['Invoice is fully_paid and cannot be paid.'],
      }),
    );
    const canceled = await invoice();
    await t.request('POST', `/_sandbox/invoices/${canceled.id}/cancel`);
    const payCanceled = await pay(canceled.id, { collector: 'cash_payment' });
    expect(payCanceled.status).toBe(409);
    expect(payCanceled.body).toEqual(
      controlError('invoice_not_payable', {
        non_field_errors: ['Invoice is canceled and cannot be paid.'],
      }),
    );
    const expired = await invoice();
    t.advance(901);
    const payExpired = await pay(expired.id, { collector: 'coins_peso_wallet' });
    expect(payExpired.status).toBe(409);
    expect(payExpired.body).toEqual(
      controlError('invoice_not_payable', {
        non_field_errors: ['Invoice is expired and cannot be paid.'],
      }),
    );
    expect(paymentCount()).toBe(1);
    t.assertLedger();
  });

  it('refuses a payment above the customer balance with 400 and changes nothing', async () => {
    const poor = t.fixtures.customers.find((c) => c.accounts[0]!.balance === '25')!;
    const inv = await invoice({ amount: 26 });
    const res = await pay(inv.id, { collector: 'coins_peso_wallet', customer: poor.email });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      controlError('insufficient_balance', { non_field_errors: ['Insufficient balance.'] }),
    );
    expect(eventNames(inv.id)).toEqual(['invoice.created']);
    const account = await t.request('GET', `/_sandbox/accounts/${poor.accounts[0]!.id}`);
    expect(account.body.account.balance).toBe('25.00000000');
    t.assertLedger();
  });
});
