import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';

// Real time stands still, so the sandbox clock reads exactly what its offset says (plus one microsecond
// per reading, the clock being strictly increasing): the tests place "now" to the microsecond.
const REAL_MS = 1_763_800_000_000;
let t: TestApp;
beforeEach(() => {
  t = createTestApp({ realNowMs: () => REAL_MS });
});
afterEach(() => t.close());

/** Make the next clock reading exactly `micros`. */
function setNow(micros: bigint) {
  t.services.clock.setOffsetMicros(Number(micros) - REAL_MS * 1000);
}

function createInvoice(ext: string, expiresAt = '10m') {
  const merchant = t.services.identities.merchantById(t.merchant.id)!;
  const inv = t.services.invoices.create(merchant, {
    amount: '20',
    currency: 'PHP',
    external_transaction_id: ext,
    expires_at: expiresAt,
  });
  return t.services.invoiceRepo.byId(inv.id)!;
}

describe('invoice expiry happens at expires_at, on the microsecond', () => {
  it('keeps an invoice pending one microsecond before expires_at and expires it at expires_at', async () => {
    const inv = createInvoice('exp-edge');
    setNow(inv.expires_at - 1n);
    expect(t.services.invoices.expireDue()).toEqual([]);
    expect(t.services.invoiceRepo.byId(inv.id)!.status).toBe('pending');

    setNow(inv.expires_at);
    expect(t.services.invoices.expireDue()).toEqual([inv.id]);
    const after = t.services.invoiceRepo.byId(inv.id)!;
    expect(after.status).toBe('expired');
    // expired as of its expiry time, not as of whenever the sweep noticed
    expect(after.updated_at).toBe(inv.expires_at);

    const res = await t.request('GET', `/v1/invoices/${inv.id}`, {
      token: t.merchant.merchant_api_token,
    });
    expect(res.status).toBe(200);
    expect(res.body.invoice).toMatchObject({ status: 'expired', expires_in_seconds: null });
  });

  it('takes a wallet payment one microsecond before expires_at and refuses one at expires_at', () => {
    const early = createInvoice('exp-pay-early');
    // Minutes apart, so that the clock readings of the first payment stay well before the second expiry.
    const late = createInvoice('exp-pay-late', '20m');
    const customer = t.services.payments.customer();

    setNow(early.expires_at - 1n);
    expect(t.services.payments.payFromWallet(early.id, customer).invoice.status).toBe('fully_paid');

    setNow(late.expires_at);
    expect(() => t.services.payments.payFromWallet(late.id, customer)).toThrow(
      expect.objectContaining({
        code: 'invoice_not_payable',
        message: 'Invoice is expired and cannot be paid.',
      }),
    );
    // The refused payment rolled back its whole unit of work; nothing was received.
    expect(t.services.invoiceRepo.byId(late.id)!.amount_received).toBe(0n);
    t.assertLedger();
  });
});
