import { describe, expect, it } from 'vitest';
import { displayMoney } from './checkout.format.js';

describe('displayMoney', () => {
  it('groups thousands with commas and keeps at least two decimals, more only when the amount has them', () => {
    expect(displayMoney(123_450_000_000n, 'PHP')).toBe('PHP 1,234.50');
    expect(displayMoney(0n, 'PHP')).toBe('PHP 0.00');
    expect(displayMoney(99_900_000_000n, 'PHP')).toBe('PHP 999.00');
    expect(displayMoney(100_000_000_000n, 'PHP')).toBe('PHP 1,000.00');
    expect(displayMoney(1_000_000_000_000_000_000n, 'PHP')).toBe('PHP 10,000,000,000.00');
    expect(displayMoney(12_345_678_912_345_678n, 'BTC')).toBe('BTC 123,456,789.12345678');
    expect(displayMoney(205_000n, 'BTC')).toBe('BTC 0.00205');
    expect(displayMoney(-12_345_600_000_000n, 'PHP')).toBe('PHP -123,456.00');
    expect(displayMoney(-100_000_000n, 'PHP')).toBe('PHP -1.00');
  });
});
