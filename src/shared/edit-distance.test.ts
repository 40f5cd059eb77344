import { describe, expect, it } from 'vitest';
import { editDistance } from './edit-distance.js';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('', 'ab')).toBe(2);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('flaw', 'lawn')).toBe(2);
  });

  it('counts a swap of neighbours as one edit only when asked', () => {
    expect(editDistance('--prot', '--port')).toBe(2);
    expect(editDistance('--prot', '--port', { swaps: true })).toBe(1);
    expect(editDistance('ca', 'abc', { swaps: true })).toBe(3);
  });
});
