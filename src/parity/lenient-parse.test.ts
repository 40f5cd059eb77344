import { describe, expect, it } from 'vitest';
import { ELIDED, parseLenient } from './lenient-parse.js';

describe('parseLenient: bodies as the sources printed them', () => {
  it('reads JS object literals, util.inspect dumps behind // and fragments cut short', () => {
    expect(parseLenient("{ id: 'a', 'x-y': \"b\", n: [Object], m: [ 1, 2, ], }")).toEqual({
      ok: true,
      value: { id: 'a', 'x-y': 'b', n: ELIDED, m: [1, 2] },
      truncated: false,
    });
    expect(parseLenient("// [ { id: 'a',\n//     total: '1' },\n//   { id: 'b'")).toEqual({
      ok: true,
      value: [{ id: 'a', total: '1' }, { id: 'b' }],
      truncated: true,
    });
    // Cut inside a key: the key may be longer than what is left of it, so it is not kept.
    expect(parseLenient('"orders": [ { "amount": "50", "bank')).toEqual({
      ok: true,
      value: { orders: [{ amount: '50' }] },
      truncated: true,
    });
    expect(parseLenient('{ "a": "1", "b": "tex')).toEqual({
      ok: true,
      value: { a: '1', b: ELIDED },
      truncated: true,
    });
    expect(parseLenient('{ a: {...}, b: ... }')).toMatchObject({
      ok: true,
      value: { a: ELIDED, b: ELIDED },
    });
  });

  it('refuses what is not an object or a list', () => {
    expect(parseLenient('This order exceeds your remaining daily limit.').ok).toBe(false);
    expect(parseLenient('{ a: 1 } trailing').ok).toBe(false);
  });
});
