import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../identities/identities.api.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

// The payment service called directly: the rules behind the HTTP routes, including the paths a route
// never reaches (the control routes look the invoice up before they pay it).
let t: TestApp;
beforeEach(() => {
  t = createTestApp({ config: { expiryEvents: true } });
});
afterEach(() => t.close());

let ext = 0;
function invoice(collectors?: string[], amount = '20') {
  const merchant = t.services.identities.merchantById(t.merchant.id)!;
  return t.services.invoices.create(merchant, {
    amount,
    currency: 'PHP',
    external_transaction_id: `svc-${++ext}`,
    ...(collectors ? { supported_payment_collectors: collectors } : {}),
  });
}
const payments = () => t.services.payments;
const ledgerTx = (id: string) =>
  t.db.prepare('SELECT kind, reference FROM ledger_transactions WHERE id = ?').get(id);
const lastEvent = (invoiceId: string) =>
  JSON.parse(
    (
      t.db
        .prepare('SELECT payload FROM outbox_events WHERE invoice_id = ? ORDER BY seq DESC LIMIT 1')
        .get(invoiceId) as { payload: string }
    ).payload,
  );
const apiError = (code: string, errors: Record<string, string[]>) =>
  expect.objectContaining({ code, errors });

/** A customer with only the wallets given (newest last), each funded with `units`. */
function customerWith(currencies: string[], units = 10_000_000_000n): User {
  const id = `cust-${++ext}`;
  const user: User = {
    id,
    kind: 'customer',
    name: 'C',
    email: `${id}@example.test`,
    mobile_number: null,
    password: null,
    workspace_id: null,
    created_at: t.services.clock.now(),
  };
  t.services.identities.insertUser(user);
  for (const currency of currencies) {
    const wallet = t.services.ledger.createAccount({
      ownerType: 'user',
      ownerId: id,
      name: currency,
      currency,
    });
    t.services.ledger.post('funding', null, [
      { accountId: t.services.ledger.systemAccount('funding', currency), amount: -units },
      { accountId: wallet, amount: units },
    ]);
  }
  return user;
}

describe('payment service', () => {
  it('answers not_found for an unknown invoice on every path', () => {
    const customer = payments().customer();
    const notFound = apiError('not_found', { non_field_errors: ['Not found.'] });
    expect(() => payments().payFromWallet('0'.repeat(32), customer)).toThrow(notFound);
    expect(() => payments().issueReference('0'.repeat(32))).toThrow(notFound);
    expect(() => payments().confirmCounterPayment('1234567890123')).toThrow(notFound);
    expect(() => payments().cancel('0'.repeat(32))).toThrow(notFound);
  });

  it('pays from the wallet in the invoice currency, whatever other wallets the customer has', () => {
    const customer = customerWith(['PHP', 'BTC']); // the BTC wallet is the newest
    const inv = invoice();
    const out = payments().payFromWallet(inv.id, customer);
    const [php, btc] = ['PHP', 'BTC'].map((c) =>
      t.services.ledger.byOwner('user', customer.id).find((a) => a.currency === c)!,
    );
    expect(php!.balance).toBe(10_000_000_000n - 2_000_000_000n);
    expect(btc!.balance).toBe(10_000_000_000n);
    const payment = t.services.invoiceRepo.payments(inv.id)[0]!;
    expect(payment.payer_account_id).toBe(php!.id);
    expect(ledgerTx(payment.ledger_transaction_id!)).toEqual({
      kind: 'invoice_payment',
      reference: inv.id,
    });
    expect(out.invoice.status).toBe('fully_paid');
    t.assertLedger();
  });

  it('refuses a customer without a wallet in the invoice currency, and an amount above the balance', () => {
    const inv = invoice();
    expect(() => payments().payFromWallet(inv.id, customerWith(['BTC']))).toThrow(
      apiError('validation_error', { customer: ['Customer has no PHP wallet.'] }),
    );
    const exact = customerWith(['PHP'], 2_000_000_000n);
    expect(() => payments().payFromWallet(inv.id, customerWith(['PHP'], 1_999_999_999n))).toThrow(
      apiError('insufficient_balance', { non_field_errors: ['Insufficient balance.'] }),
    );
    // a balance of exactly the amount due is enough
    expect(payments().payFromWallet(inv.id, exact).invoice.status).toBe('fully_paid');
    expect(() => payments().customer('nobody')).toThrow(
      apiError('validation_error', { customer: ['No customer "nobody".'] }),
    );
  });

  it('takes an outlet collector on an invoice that offers cash_payment, and names the offered ones otherwise', () => {
    const cash = invoice(['cash_payment', 'coins_peso_wallet']);
    const paid = payments().payOverCounter(cash.id, 'seven_connect_deposit');
    expect(paid.payment.payment_collector).toBe('seven_connect_deposit');
    const payment = t.services.invoiceRepo.payments(cash.id)[0]!;
    expect(ledgerTx(payment.ledger_transaction_id!)).toEqual({
      kind: 'counter_payment',
      reference: cash.id,
    });
    const walletOnly = invoice(['coins_peso_wallet', 'seven_connect_deposit']);
    expect(() => payments().payOverCounter(walletOnly.id, 'bayad_deposit')).toThrow(
      apiError('validation_error', {
        collector: [
          '"bayad_deposit" is not a payment option of this invoice (coins_peso_wallet, seven_connect_deposit).',
        ],
      }),
    );
    t.assertLedger();
  });

  it('issues a cash_payment reference by default, with its event, and returns the same one after', () => {
    const inv = invoice();
    const first = payments().issueReference(inv.id);
    expect(t.services.invoiceRepo.byId(inv.id)!.current_payment_collector).toBe('cash_payment');
    expect(lastEvent(inv.id).event.name).toBe('invoice.payment_reference_number_generated');
    expect(payments().issueReference(inv.id).reference_number).toBe(first.reference_number);
  });

  it('issues 13-digit references, no two alike', () => {
    const refs = Array.from(
      { length: 40 },
      () => payments().issueReference(invoice().id).reference_number,
    );
    for (const ref of refs) expect(ref).toMatch(/^[1-9]\d{12}$/);
    expect(new Set(refs).size).toBe(refs.length);
  });

  it('raises invoice.updated with the closed invoice on expiry and cancellation (with expiryEvents)', () => {
    const a = invoice();
    payments().expire(a.id);
    expect(lastEvent(a.id).event).toMatchObject({ name: 'invoice.updated', data: { id: a.id } });
    const b = invoice();
    payments().cancel(b.id);
    expect(lastEvent(b.id).event).toMatchObject({ name: 'invoice.updated', data: { id: b.id } });
  });
});

describe('payment service: what it reads, and what it refuses', () => {
  it('refuses to pay a pending invoice of a deleted workspace (its merchant is disabled), and moves nothing', async () => {
    const created = await t.request('POST', '/_sandbox/workspaces', { body: {} });
    expect(created.status, created.text).toBe(201);
    const ws = created.body.workspace as { id: string; merchant: { id: string } };
    const merchant = t.services.identities.merchantById(ws.merchant.id);
    if (!merchant) throw new Error('the workspace merchant');
    const inv = t.services.invoices.create(merchant, {
      amount: '20',
      currency: 'PHP',
      external_transaction_id: `svc-${++ext}`,
    });
    expect((await t.request('DELETE', `/_sandbox/workspaces/${ws.id}`)).status).toBe(204);
    expect(t.services.invoiceRepo.byId(inv.id)?.status).toBe('pending');
    const customer = customerWith(['PHP']);
    expect(() => payments().payFromWallet(inv.id, customer)).toThrow(
      apiError('invoice_not_payable', {
        non_field_errors: ["The invoice's workspace was deleted; it cannot be paid."],
      }),
    );
    expect(t.services.invoiceRepo.payments(inv.id)).toEqual([]);
    t.assertLedger();
  });

  it('refuses a reference number that is not 13 digits, saying how one is written', () => {
    for (const typed of ['12345', '1234 5678 9012 34', 'ABCDEFGHIJKLM'])
      expect(() => payments().confirmCounterPayment(typed)).toThrow(
        apiError('validation_error', {
          reference_number: [
            'A reference number is 13 digits, as the hosted page shows it (spaces and dashes are ignored).',
          ],
        }),
      );
  });

  it('pays the invoice row its caller just read without reading it again, and reads another id', () => {
    const inv = invoice();
    const other = invoice();
    const customer = customerWith(['PHP']);
    const loaded = t.services.invoices.load(inv.id);
    const load = vi.spyOn(t.services.invoices, 'load');
    try {
      expect(payments().payFromWallet(inv.id, customer, undefined, loaded).invoice.status).toBe(
        'fully_paid',
      );
      expect(load).not.toHaveBeenCalled();
      // A row of another invoice is no stand-in: the invoice asked for is read.
      payments().payFromWallet(other.id, customer, undefined, loaded);
      expect(load).toHaveBeenCalledWith(other.id);
      expect(t.services.invoiceRepo.byId(other.id)?.status).toBe('fully_paid');
    } finally {
      load.mockRestore();
    }
  });

  it("shows an invoice's first payment without reading its payments back, a later one with all of them", () => {
    const inv = invoice(undefined, '30');
    const customer = customerWith(['PHP']);
    const reads = vi.spyOn(t.services.invoiceRepo, 'payments');
    try {
      const first = payments().payFromWallet(inv.id, customer, 1_000_000_000n);
      expect(reads).not.toHaveBeenCalled();
      expect(first.invoice.amount_received).toBe('10.00000000');
      const second = payments().payFromWallet(inv.id, customer, 2_000_000_000n);
      expect(reads).toHaveBeenCalledWith(inv.id);
      expect(second.invoice).toMatchObject({
        status: 'fully_paid',
        amount_received: '30.00000000',
      });
    } finally {
      reads.mockRestore();
    }
  });
});
