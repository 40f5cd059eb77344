import { describe, expect, it } from 'vitest';
import {
  AmountError,
  formatDecimal,
  formatMoney,
  formatMoneyShort,
  fractionOf,
  parseAmount,
} from './money.js';

describe('money', () => {
  it.each([
    [20, 2_000_000_000n],
    ['20', 2_000_000_000n],
    ['0.00000001', 1n],
    [0.1, 10_000_000n],
    [1e-7, 10n],
    ['1234.5', 123_450_000_000n],
    ['007.10', 710_000_000n],
    ['1.000000000', 100_000_000n],
    ['1.0000000000', 100_000_000n],
    ['10000000000', 1_000_000_000_000_000_000n],
    [1e10, 1_000_000_000_000_000_000n],
  ])('parses %j exactly', (input, units) => {
    expect(parseAmount(input)).toBe(units);
  });

  it.each([
    ['1e3', 'invalid'],
    ['-1', 'not_positive'],
    [-1, 'not_positive'],
    [0, 'not_positive'],
    ['0.000000001', 'too_many_digits'],
    ['', 'invalid'],
    [' 1', 'invalid'],
    ['1,000', 'invalid'],
    [NaN, 'invalid'],
    [Infinity, 'invalid'],
    [null, 'invalid'],
    ['10000000000.00000001', 'too_large'],
    ['2000000000000', 'too_large'],
    [1e21, 'too_large'],
    [1e-10, 'too_many_digits'],
    ['+1', 'invalid'],
    [true, 'invalid'],
  ])('refuses %j (%s)', (input, problem) => {
    try {
      parseAmount(input);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AmountError);
      expect((err as AmountError).problem).toBe(problem);
    }
  });

  it('formats with exactly 8 fractional digits, beyond the range of doubles', () => {
    expect(formatMoney(0n)).toBe('0.00000000');
    expect(formatMoney(2_000_000_000n)).toBe('20.00000000');
    expect(formatMoney(123_456_789_012_345_678_9n)).toBe('12345678901.23456789');
    expect(formatMoney(-5n)).toBe('-0.00000005');
    expect(formatMoneyShort(1_000_000_000_000n)).toBe('10000');
    expect(formatMoneyShort(150_000_000n)).toBe('1.5');
  });

  it('writes developer-API decimals unpadded, as the real service does ("5", "0.00205", "0")', () => {
    expect(formatDecimal(500_000_000n)).toBe('5');
    expect(formatDecimal(205_000n)).toBe('0.00205');
    expect(formatDecimal(0n)).toBe('0');
    expect(formatDecimal(1_000_000_000n)).toBe('10');
    expect(formatDecimal(123_456_789_012n)).toBe('1234.56789012');
  });

  it('takes zero only when allowed', () => {
    expect(parseAmount(0, { allowZero: true })).toBe(0n);
    expect(parseAmount('0.00', { allowZero: true })).toBe(0n);
    expect(() => parseAmount('0.00')).toThrow(
      new AmountError('not_positive', 'Ensure this value is greater than 0.'),
    );
  });

  it('takes fractions exactly ("0.015" = 1.5 %), rounding half up to a unit', () => {
    expect(() => fractionOf(1n, '1e-2')).toThrow(new Error('bad fraction 1e-2'));
    expect(fractionOf(100_000_000_000n, '0.015')).toBe(1_500_000_000n);
    expect(fractionOf(100_000_000_000n, '1')).toBe(100_000_000_000n);
    expect(fractionOf(1n, '0.5')).toBe(1n);
    expect(fractionOf(3n, '0.1')).toBe(0n);
    expect(fractionOf(123_456_789n, '0.0075')).toBe(925_926n);
    expect(fractionOf(999n, '0')).toBe(0n);
  });
});

describe('amounts with a long run of zeros (docs/design.md#input-handling)', () => {
  // /0+$/ on the fraction was quadratic: 16 s at the body limit (64 KiB), past this project's test
  // bound at 256 KiB.
  it('refuses `5.000…0001` for its decimals, and reads `5.000…000` as 5', () => {
    const caught: unknown = (() => {
      try {
        return parseAmount(`5.${'0'.repeat(256 * 1024)}1`);
      } catch (err) {
        return err;
      }
    })();
    expect(caught).toBeInstanceOf(AmountError);
    expect(caught).toMatchObject({
      problem: 'too_many_digits',
      message: 'Ensure that there are no more than 8 decimal places.',
    });
    expect(parseAmount(`5.${'0'.repeat(1024 * 1024)}`)).toBe(500_000_000n);
  });

  it('writes the short form without the trailing zeros or the dot', () => {
    expect(formatMoneyShort(1_000_000_000_000n)).toBe('10000');
    expect(formatMoneyShort(1_050_000_000n)).toBe('10.5');
    expect(formatMoneyShort(0n)).toBe('0');
    expect(formatMoneyShort(-250_000_000n)).toBe('-2.5');
  });
});
