import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { substitute } from './snapshot.restore.js';

// The expression the restore found emails with: quadratic on a long run with no `@`.
const OLD_EMAIL = /[^\s"'<>(),;:]+@[^\s"'<>(),;:]+/g;

describe('renewing the values a snapshot text holds (docs/design.md#input-handling)', () => {
  it('finds the emails the expression found, on short texts of the characters that matter', () => {
    const text = fc
      .array(fc.constantFrom('a', '@', '.', ' ', ':', '"', 'x@y'), { maxLength: 12 })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(text, (x) => {
        const emails = x.match(OLD_EMAIL) ?? [];
        // Each email the expression finds is renewed, whole; nothing else is (no word is in the map).
        const map = new Map(emails.map((e) => [e, `<${e}>`]));
        expect(substitute(map, x), x).toBe(x.replace(OLD_EMAIL, (e) => `<${e}>`));
      }),
      { seed: 44, numRuns: 5000 },
    );
  });

  it('renews an email after a megabyte without one, and leaves a megabyte run alone', () => {
    const map = new Map([['juan@example.ph', 'new@example.ph']]);
    const run = 'a.'.repeat(512 * 1024);
    expect(substitute(map, `${run} juan@example.ph`)).toBe(`${run} new@example.ph`);
    expect(substitute(map, `${run}@`)).toBe(`${run}@`);
    expect(substitute(map, `@${run}`)).toBe(`@${run}`);
  });
});
