import { describe, expect, it } from 'vitest';
import { accepts, amountDue, collectorsOf, counterCollector } from './invoice.model.js';

const inv = (collectors: string[]) => ({ supported_payment_collectors: JSON.stringify(collectors) });

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
    expect(counterCollector(inv(['coins_peso_wallet', 'palawan_deposit', 'bayad_deposit']))).toBe('palawan_deposit');
    expect(counterCollector(inv(['coins_peso_wallet']))).toBeNull();
  });

  it('parses the stored list once and hands out a list nobody can change', () => {
    const row = inv(['coins_peso_wallet', 'cash_payment']);
    expect(collectorsOf(row)).toEqual(['coins_peso_wallet', 'cash_payment']);
    expect(collectorsOf(row)).toBe(collectorsOf({ ...row }));
    expect(Object.isFrozen(collectorsOf(row))).toBe(true);
  });
});
