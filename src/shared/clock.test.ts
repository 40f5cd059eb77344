import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClock, formatTimestamp, parseExpiry } from './clock.js';
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
    const micros = fc
      .tuple(second, fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 999_999 }))
      .map(([s, k, u]) => (s + k * 64) * 1_000_000 + u);
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
    for (let i = 1; i < ids.length; i++)
      expect(ids[i]!.slice(0, 12) >= ids[i - 1]!.slice(0, 12)).toBe(true);
  });
});

describe('createClock', () => {
  it('after an advance and a reset, reads real time again and moves with it (no freeze ahead)', () => {
    let real = 1_795_336_558_000; // ms
    const clock = createClock({ realNowMs: () => real });
    clock.setOffsetMicros(901_000_000);
    expect(clock.now()).toBe(real * 1000 + 901_000_000);
    clock.setOffsetMicros(0);
    expect(clock.now()).toBe(real * 1000);
    clock.setOffsetMicros(10_000_000);
    expect(clock.now()).toBe(real * 1000 + 10_000_000);
    real += 5;
    expect(clock.now()).toBe(real * 1000 + 10_000_000);
  });

  it('keeps readings of the same microsecond distinct, and follows real time when it steps back', () => {
    let real = 1_000_000;
    const clock = createClock({ realNowMs: () => real });
    const a = clock.now();
    expect(clock.now()).toBe(a + 1);
    expect(clock.now()).toBe(a + 2);
    real += 0.001; // one microsecond later: still past the nudged readings
    expect(clock.now()).toBe(a + 3);
    real -= 60_000; // the system clock is set back a minute
    expect(clock.now()).toBe(Math.floor(real * 1000));
  });

  type Op =
    | { kind: 'advance'; micros: number }
    | { kind: 'reset' }
    | { kind: 'pass'; ms: number }
    | { kind: 'back'; ms: number }
    | { kind: 'restart' }
    | { kind: 'read'; n: number };
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({
      kind: fc.constant('advance' as const),
      micros: fc.integer({ min: 1, max: 31_622_400 * 1_000_000 }),
    }),
    fc.record({ kind: fc.constant('reset' as const) }),
    fc.record({
      kind: fc.constant('pass' as const),
      ms: fc.double({ min: 0, max: 3_600_000, noNaN: true }),
    }),
    fc.record({ kind: fc.constant('back' as const), ms: fc.integer({ min: 1, max: 600_000 }) }),
    fc.record({ kind: fc.constant('restart' as const) }),
    fc.record({ kind: fc.constant('read' as const), n: fc.integer({ min: 1, max: 50 }) }),
  );

  // The rule: a reading is real time + the persisted offset, unless that microsecond was already handed
  // out since time last went back, in which case it is the next free microsecond.
  it('reads real time + offset whatever sequence of advance, reset, time passing and restart came before', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        let real = 1_795_336_558_000.25;
        let stored = 0; // the persisted offset
        const open = () =>
          createClock({
            realNowMs: () => real,
            initialOffsetMicros: stored,
            onOffsetChange: (o) => (stored = o),
          });
        let clock = open();
        let prevT = Number.NEGATIVE_INFINITY;
        let prevBase = Number.NEGATIVE_INFINITY;
        for (const o of ops) {
          if (o.kind === 'advance') clock.setOffsetMicros(clock.offsetMicros() + o.micros);
          else if (o.kind === 'reset') clock.setOffsetMicros(0);
          else if (o.kind === 'pass') real += o.ms;
          else if (o.kind === 'back') real -= o.ms;
          else if (o.kind === 'restart') {
            clock = open();
            prevT = prevBase = Number.NEGATIVE_INFINITY;
          }
          expect(clock.offsetMicros()).toBe(stored);
          const base = Math.floor(real * 1000) + stored;
          for (let i = 0; i < (o.kind === 'read' ? o.n : 1); i++) {
            const t = clock.now();
            expect(t).toBeGreaterThanOrEqual(base);
            expect(t).toBe(base > prevT || base < prevBase ? base : prevT + 1);
            if (base >= prevBase) expect(t).toBeGreaterThan(prevT); // never backwards unless time went back
            prevT = t;
            prevBase = base;
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseExpiry', () => {
  it('adds up a delta of a megabyte, each part read from the start of its digits', () => {
    expect(parseExpiry('1w 3d 2h 32m 5s', 0)).toBe((604800 + 3 * 86400 + 7200 + 1920 + 5) * 1e6);
    expect(parseExpiry('12h', 1)).toBe(12 * 3600 * 1e6 + 1);
    expect(parseExpiry(`${'1s'.repeat(512 * 1024)}`, 0)).toBe(512 * 1024 * 1e6);
    expect(parseExpiry('1'.repeat(1024 * 1024), 0)).toBeNull();
    expect(parseExpiry(`${'1'.repeat(1024 * 1024)}x`, 0)).toBeNull();
  });
});
