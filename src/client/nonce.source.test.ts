import { describe, expect, it } from 'vitest';
import { createNonceSource, createSerialQueue } from './nonce.source.js';

describe('createNonceSource', () => {
  it('is strictly increasing within one millisecond and when the clock goes back', () => {
    let now = 1_763_800_000_000;
    const nonces = createNonceSource({ now: () => now });
    const a = nonces.next();
    const b = nonces.next();
    now -= 5_000;
    const c = nonces.next();
    now += 10_000;
    const d = nonces.next();
    expect(a).toBe('1763800000000000');
    expect(b).toBe('1763800000000001');
    expect(c).toBe('1763800000000002');
    expect(d).toBe('1763800005000000');
  });

  it('hands out distinct, ordered nonces to many concurrent callers', async () => {
    const nonces = createNonceSource({ now: () => 1_700_000_000_000 });
    const got = await Promise.all(Array.from({ length: 200 }, async () => BigInt(nonces.next())));
    expect(new Set(got).size).toBe(200);
    expect([...got].sort((x, y) => (x < y ? -1 : 1))).toEqual(got);
  });

  it('starts above a huge locked nonce given in exponent form, exactly', () => {
    const nonces = createNonceSource({ start: '1.8e+262' });
    const first = nonces.next();
    expect(first).toBe('18' + '0'.repeat(261));
    expect(nonces.next()).toBe('18' + '0'.repeat(260) + '1');
  });

  it('advancePast moves the floor up, never down', () => {
    const nonces = createNonceSource({ now: () => 1 });
    nonces.advancePast('99999999999999999999');
    expect(nonces.next()).toBe('100000000000000000000');
    nonces.advancePast(5n);
    expect(nonces.next()).toBe('100000000000000000001');
    expect(nonces.last()).toBe('100000000000000000001');
  });

  it('reads the clock in whole milliseconds, starts from "0" and takes a start with surrounding spaces', () => {
    let now = 1_700_000_000_000.9;
    const nonces = createNonceSource({ now: () => now });
    expect(nonces.last()).toBe('0');
    expect(nonces.next()).toBe('1700000000000000');
    now = 1_700_000_000_001.2;
    expect(nonces.next()).toBe('1700000000001000');
    const floored = createNonceSource({ start: ' 100 ', now: () => 0 });
    expect(floored.last()).toBe('99');
    expect(floored.next()).toBe('100');
    expect(floored.next()).toBe('101');
  });

  it('uses the real clock (microseconds) by default', () => {
    const before = BigInt(Date.now()) * 1000n;
    const got = BigInt(createNonceSource().next());
    expect(got >= before && got <= BigInt(Date.now()) * 1000n).toBe(true);
  });

  it('refuses a start that is not a nonce', () => {
    expect(() => createNonceSource({ start: '-1' })).toThrow(/not a nonce/);
    expect(() => createNonceSource({ start: '1.5' })).toThrow(/not a nonce/);
  });
});

describe('createSerialQueue', () => {
  it('runs tasks one at a time in call order, and a failure does not block the next task', async () => {
    const queue = createSerialQueue();
    const log: string[] = [];
    let running = 0;
    const task =
      (name: string, fail = false) =>
      async () => {
        running += 1;
        expect(running).toBe(1);
        log.push(`start ${name}`);
        await new Promise((r) => setImmediate(r));
        log.push(`end ${name}`);
        running -= 1;
        if (fail) throw new Error(name);
        return name;
      };
    const all = Promise.allSettled([
      queue.run(task('a')),
      queue.run(task('b', true)),
      queue.run(task('c')),
    ]);
    expect(queue.size).toBe(3);
    const results = await all;
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(queue.size).toBe(0);
  });
});
