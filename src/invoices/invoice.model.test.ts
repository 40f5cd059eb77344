import { describe, expect, it } from 'vitest';
import {
  accepts,
  amountDue,
  close,
  collectorsOf,
  counterCollector,
  issueReference,
  parseCollectors,
  receivePayment,
} from './invoice.model.js';
import type { Invoice } from './invoices.api.js';

const inv = (collectors: string[]) => ({
  supported_payment_collectors: parseCollectors(JSON.stringify(collectors)),
});

describe('invoice model', () => {
  it('says what is due, never below zero after an over-payment', () => {
    expect(amountDue({ amount: 2_000n, amount_received: 500n })).toBe(1_500n);
    expect(amountDue({ amount: 2_000n, amount_received: 2_000n })).toBe(0n);
    expect(amountDue({ amount: 2_000n, amount_received: 2_500n })).toBe(0n);
  });

  it('takes a collector it lists, and every outlet collector when it lists cash_payment', () => {
    expect(accepts(inv(['coins_peso_wallet']), 'coins_peso_wallet')).toBe(true);
    expect(accepts(inv(['coins_peso_wallet']), 'cash_payment')).toBe(false);
    expect(accepts(inv(['cash_payment']), 'bayad_deposit')).toBe(true);
    expect(accepts(inv(['bayad_deposit']), 'mlhuillier_deposit')).toBe(false);
    expect(accepts(inv(['bayad_deposit']), 'coins_peso_wallet')).toBe(false);
  });

  it('pays over the counter with cash_payment when offered, else the first outlet collector, else not at all', () => {
    expect(counterCollector(inv(['bayad_deposit', 'cash_payment']))).toBe('cash_payment');
    expect(counterCollector(inv(['coins_peso_wallet', 'palawan_deposit', 'bayad_deposit']))).toBe(
      'palawan_deposit',
    );
    expect(counterCollector(inv(['coins_peso_wallet']))).toBeNull();
  });

  it('parses a stored list once and hands out a list nobody can change', () => {
    const stored = JSON.stringify(['coins_peso_wallet', 'cash_payment']);
    expect(parseCollectors(stored)).toEqual(['coins_peso_wallet', 'cash_payment']);
    expect(parseCollectors(stored)).toBe(parseCollectors(`${stored}`));
    expect(Object.isFrozen(parseCollectors(stored))).toBe(true);
    expect(collectorsOf(inv(['cash_payment']))).toEqual(['cash_payment']);
  });
});

describe('invoice state changes (pure: the new state and the event, nothing written)', () => {
  const pending: Invoice = {
    id: 'i1',
    merchant_id: 'm1',
    status: 'pending',
    amount: 2_000n,
    amount_received: 0n,
    currency: 'PHP',
    external_transaction_id: 'x',
    description: '',
    metadata: '{}',
    supported_payment_collectors: ['cash_payment'],
    current_payment_reference_number: null,
    current_payment_collector: null,
    created_at: 1n,
    updated_at: 1n,
    expires_at: 99n,
  };
  const payment = (amount: bigint) => ({
    id: 'p1',
    amount,
    payment_collector: 'cash_payment',
    reference_number: 'r',
    payer_account_id: null,
    ledger_transaction_id: 't',
  });

  it('a partial payment keeps the invoice pending and raises invoice.updated; the rest makes it fully_paid', () => {
    const part = receivePayment(pending, payment(500n), 10);
    expect(part.invoice).toEqual({ ...pending, amount_received: 500n, updated_at: 10n });
    expect(part.event).toBe('invoice.updated');
    expect(part.payment).toEqual({ ...payment(500n), invoice_id: 'i1', created_at: 10n });
    const rest = receivePayment(part.invoice, payment(1_500n), 11);
    expect(rest.invoice).toMatchObject({
      status: 'fully_paid',
      amount_received: 2_000n,
      updated_at: 11n,
    });
    expect(rest.event).toBe('invoice.fully_paid');
    expect(pending.amount_received).toBe(0n); // the model never changes what it was given
  });

  it('an over-payment is kept and completes the invoice', () => {
    expect(receivePayment(pending, payment(2_500n), 10).invoice).toMatchObject({
      status: 'fully_paid',
      amount_received: 2_500n,
    });
  });

  it('a reference number raises its event; closing raises invoice.updated only when announced', () => {
    const ref = issueReference(pending, '1234', 'bayad_deposit', 5);
    expect(ref.invoice).toMatchObject({
      current_payment_reference_number: '1234',
      current_payment_collector: 'bayad_deposit',
      updated_at: 5n,
    });
    expect(ref.event).toBe('invoice.payment_reference_number_generated');
    expect(ref.payment).toBeUndefined();
    expect(close(pending, 'canceled', 6, false)).toEqual({
      invoice: { ...pending, status: 'canceled', updated_at: 6n },
      event: null,
    });
    expect(close(pending, 'expired', 6, true).event).toBe('invoice.updated');
  });
});
