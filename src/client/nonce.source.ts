import { parseNonce } from '../auth/hmac.js';

/**
 * Nonces for one API key: strictly increasing decimal integers, even for many calls within one
 * millisecond (docs/design.md#authentication: each nonce must be greater than the last one the server accepted).
 */
export interface NonceSource {
  /** The next nonce, as decimal digits; greater than every nonce handed out before. */
  next(): string;
  /** The last nonce handed out (or the floor the source starts above). */
  last(): string;
  /** Never hand out a nonce at or below `value` again (e.g. after the server reported its last nonce). */
  advancePast(value: string | bigint): void;
}

export interface NonceSourceOptions {
  /**
   * Hand out nothing below this (the clock still wins when it is larger). A key that once received a huge nonce (some public clients send
   * `Date.now() * 1e250`) is locked to huge nonces; start above its last one (`"1.8e+262"` works).
   */
  start?: string | bigint;
  /** Milliseconds since the epoch (injected in tests). */
  now?: () => number;
}

function toBigInt(value: string | bigint): bigint {
  if (typeof value === 'bigint') return value;
  const digits = parseNonce(value.trim());
  if (digits === null)
    throw new RangeError(
      `not a nonce: "${value}" (a non-negative integer, e.g. 1700000000000 or 1.7e+25)`,
    );
  return BigInt(digits);
}

/**
 * A monotonic nonce source: microseconds since the epoch, or one more than the last nonce when the
 * clock has not moved (or moved back). Synchronous, so concurrent callers can never get the same nonce;
 * send requests of one key through a {@link SerialQueue} so they also reach the server in order.
 *
 * @example
 * const nonces = createNonceSource();
 * nonces.next(); // '1763800000000000'
 * nonces.next(); // '1763800000000001' (same microsecond or not, always larger)
 * createNonceSource({ start: '1.8e+262' }).next(); // 18 followed by 261 zeros
 */
export function createNonceSource(opts: NonceSourceOptions = {}): NonceSource {
  const now = opts.now ?? Date.now;
  let last = opts.start !== undefined ? toBigInt(opts.start) - 1n : -1n;
  return {
    next() {
      const fromClock = BigInt(Math.floor(now())) * 1000n;
      last = fromClock > last ? fromClock : last + 1n;
      return last.toString();
    },
    // Stryker disable next-line EqualityOperator: at 0n both branches give "0"
    last: () => (last < 0n ? '0' : last.toString()),
    advancePast(value) {
      const v = toBigInt(value);
      // Stryker disable next-line EqualityOperator: when equal, the assignment changes nothing
      if (v > last) last = v;
    },
  };
}

/** Runs async tasks one at a time, in call order. */
export interface SerialQueue {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks queued or running. */
  readonly size: number;
}

/**
 * A FIFO lock: `run` waits for every earlier task (settled or failed) before starting its own.
 *
 * @example
 * const queue = createSerialQueue();
 * await Promise.all([queue.run(() => send(1)), queue.run(() => send(2))]); // send(2) starts after send(1) ends
 */
export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  let size = 0;
  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      size += 1;
      const result = tail.then(task);
      tail = result.then(
        () => undefined,
        () => undefined,
      );
      return result.finally(() => {
        size -= 1;
      });
    },
    get size() {
      return size;
    },
  };
}
