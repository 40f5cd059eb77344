import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTimestamp } from './clock.js';
import { ID_PATTERN, newId } from './ids.js';

/** The plain definition the cached formatter must agree with. */
function reference(micros: number): string {
  const ms = Math.floor(micros / 1000);
  return `${new Date(ms).toISOString().slice(0, 23)}${String(micros % 1000).padStart(3, '0')}Z`;
}

describe('formatTimestamp', () => {
  it('prints microseconds like the real service', () => {
    expect(formatTimestamp(1_795_336_558_052_291)).toBe('2026-11-22T08:35:58.052291Z');
    expect(formatTimestamp(1_795_336_558_000_000)).toBe('2026-11-22T08:35:58.000000Z');
    expect(formatTimestamp(1_795_336_558_999_999)).toBe('2026-11-22T08:35:58.999999Z');
  });

  it('agrees with the plain definition whatever order seconds come in (its cache never leaks)', () => {
    // Seconds that share a cache slot (multiples of 64 apart) and repeat, in any order.
    const second = fc.integer({ min: 0, max: 4_000_000_000 });
    const micros = fc.tuple(second, fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 999_999 })).map(([s, k, u]) => (s + k * 64) * 1_000_000 + u);
    fc.assert(
      fc.property(fc.array(micros, { minLength: 1, maxLength: 50 }), (list) => {
        for (const m of list) expect(formatTimestamp(m)).toBe(reference(m));
      }),
      { numRuns: 300 },
    );
  });
});

describe('newId', () => {
  it('is 32 lowercase hex, a version 7 UUID without dashes, ordered by its millisecond', () => {
    const before = Date.now();
    const ids = Array.from({ length: 2000 }, () => newId());
    const after = Date.now();
    for (const id of ids) {
      expect(id).toMatch(ID_PATTERN);
      expect(id[12]).toBe('7'); // version
      expect('89ab').toContain(id[16]); // RFC 9562 variant
      const ms = parseInt(id.slice(0, 12), 16);
      expect(ms).toBeGreaterThanOrEqual(before);
      expect(ms).toBeLessThanOrEqual(after);
    }
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) expect(ids[i]!.slice(0, 12) >= ids[i - 1]!.slice(0, 12)).toBe(true);
  });
});
