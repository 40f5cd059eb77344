import { describe, expect, it } from 'vitest';
import { appPerTest, createTestApp, type TestApp } from '../testing/test-app.js';
import { controlError } from '../testing/error-code.js';
import { invoiceControlHelpers } from '../testing/invoice-control.test-support.js';

let t: TestApp;
appPerTest(
  (app) => (t = app),
  () => t,
);

const { invoice, pay, eventNames } = invoiceControlHelpers(() => t);

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
      expect(again.body).toEqual(
        controlError('invalid_state_transition', {
          non_field_errors: [
            `Invoice is canceled; only a pending invoice can become ${action === 'cancel' ? 'canceled' : 'expired'}.`,
          ],
        }),
      );
    }
  });

  it('refuses to cancel an invoice that expired on the clock, and to expire a paid one', async () => {
    const a = await invoice();
    t.advance(900);
    const cancel = await t.request('POST', `/_sandbox/invoices/${a.id}/cancel`);
    expect(cancel.status).toBe(409);
    expect(cancel.body).toEqual(
      controlError('invalid_state_transition', {
        non_field_errors: ['Invoice is expired; only a pending invoice can become canceled.'],
      }),
    );
    const b = await invoice();
    await pay(b.id, { collector: 'coins_peso_wallet' });
    const expire = await t.request('POST', `/_sandbox/invoices/${b.id}/expire`);
    expect(expire.status).toBe(409);
    expect(expire.body).toEqual(
      controlError('invalid_state_transition', {
        non_field_errors: ['Invoice is fully_paid; only a pending invoice can become expired.'],
      }),
    );
  });

  it('answers 404 for unknown invoices', async () => {
    for (const action of ['cancel', 'expire']) {
      const res = await t.request('POST', `/_sandbox/invoices/${'f'.repeat(32)}/${action}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(controlError('not_found', { non_field_errors: ['Not found.'] }));
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
