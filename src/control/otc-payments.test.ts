import { describe, expect, it } from 'vitest';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import { controlError } from '../testing/error-code.js';
import { invoiceControlHelpers } from '../testing/invoice-control.test-support.js';

let t: TestApp;
appPerTest((app) => (t = app));

const { invoice, eventNames, paymentCount } = invoiceControlHelpers(() => t);

describe('POST /_sandbox/otc/payments (confirmCounterPayment)', () => {
  async function reference(amount = 100) {
    const inv = await invoice({ amount });
    const res = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.payment_reference_number_generated', invoice_id: inv.id },
    });
    expect(res.status).toBe(201);
    return { id: inv.id, ref: res.body.invoice.current_payment_reference_number as string };
  }

  it('confirms the amount due by default and marks the invoice paid', async () => {
    const { id, ref } = await reference();
    const res = await t.request('POST', '/_sandbox/otc/payments', {
      body: { reference_number: ref },
    });
    expect(res.status).toBe(201);
    expect(res.body.payment).toMatchObject({
      amount: '100.00000000',
      payment_collector: 'cash_payment',
      reference_number: ref,
    });
    expect(res.body.invoice.status).toBe('fully_paid');
    expect(eventNames(id)).toEqual([
      'invoice.created',
      'invoice.payment_reference_number_generated',
      'invoice.fully_paid',
    ]);
    t.assertLedger();
  });

  it('accepts the reference as the hosted page shows it: grouped with spaces, or with dashes', async () => {
    const grouped = await reference(50);
    const shown = grouped.ref.replace(/^(\d{4})(\d{4})(\d{5})$/, '$1 $2 $3');
    expect(shown).toMatch(/^\d{4} \d{4} \d{5}$/);
    const res = await t.request('POST', '/_sandbox/otc/payments', {
      body: { reference_number: ` ${shown}\u00a0` },
    });
    expect(res.status).toBe(201);
    expect(res.body.payment.reference_number).toBe(grouped.ref);
    expect(res.body.invoice.status).toBe('fully_paid');
    const dashed = await reference(50);
    const withDashes = dashed.ref.replace(/^(\d{4})(\d{4})(\d{5})$/, '$1-$2-$3');
    expect(
      (
        await t.request('POST', '/_sandbox/otc/payments', {
          body: { reference_number: withDashes },
        })
      ).status,
    ).toBe(201);
    // What is left once spaces and dashes go must be a reference number's 13 digits: else 400 on the field.
    for (const typed of [' - ', 'abc', '12345', '1234 5678 9012 34']) {
      const malformed = await t.request('POST', '/_sandbox/otc/payments', {
        body: { reference_number: typed },
      });
      expect(malformed.status, typed).toBe(400);
      expect(Object.keys(malformed.body.errors), typed).toEqual(['reference_number']);
    }
    t.assertLedger();
  });

  it('takes part payments against the same reference, then refuses once paid', async () => {
    const { ref } = await reference();
    const part = await t.request('POST', '/_sandbox/otc/payments', {
      body: { reference_number: ref, amount: 30 },
    });
    expect(part.body.invoice).toMatchObject({ status: 'pending', amount_due: '70.00000000' });
    const rest = await t.request('POST', '/_sandbox/otc/payments', {
      body: { reference_number: ref, amount: '70' },
    });
    expect(rest.body.invoice.status).toBe('fully_paid');
    const again = await t.request('POST', '/_sandbox/otc/payments', {
      body: { reference_number: ref },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(
      controlError('invoice_not_payable', {
        non_field_errors: ['Invoice is fully_paid and cannot be paid.'],
      }),
    );
    t.assertLedger();
  });

  it('answers 404 for an unknown reference and 400 for a bad amount or missing reference', async () => {
    const unknown = await t.request('POST', '/_sandbox/otc/payments', {
      body: { reference_number: '1234567890123' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(controlError('not_found', { non_field_errors: ['Not found.'] }));
    const { ref } = await reference();
    const bad = await t.request('POST', '/_sandbox/otc/payments', {
      body: { reference_number: ref, amount: 0 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(
      controlError('validation_error', { amount: ['Ensure this value is greater than 0.'] }),
    );
    const missing = await t.request('POST', '/_sandbox/otc/payments', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(
      controlError('validation_error', { reference_number: ['This field is required.'] }),
    );
    expect(paymentCount()).toBe(0);
  });
});
