import { describe, expect, it } from 'vitest';
import { itemAt, required } from './defined.js';

describe('itemAt', () => {
  it('returns the item, falsy ones included', () => {
    expect(itemAt([0, 1], 0)).toBe(0);
    expect(itemAt(new Float64Array([2.5]), 0)).toBe(2.5);
    expect(itemAt([null], 0)).toBeNull();
  });

  it('throws a RangeError naming the index outside the array', () => {
    expect(() => itemAt([1, 2], 2)).toThrow(new RangeError('no item at index 2 (length 2)'));
    expect(() => itemAt([], -1)).toThrow(RangeError);
  });
});

describe('required', () => {
  it('returns a present value, falsy ones included', () => {
    expect(required(0, 'a count')).toBe(0);
    expect(required('', 'a name')).toBe('');
  });

  it('throws naming what was expected', () => {
    expect(() => required(undefined, 'the delivery row')).toThrow(
      'expected the delivery row, found undefined',
    );
    expect(() => required(null, 'a match')).toThrow('expected a match, found null');
  });
});
