/**
 * The sandbox clock: real time plus a persisted offset that QA can move forward and reset.
 * Time is in integer microseconds since the epoch, and a reading is always real time + offset:
 * readings taken within the same microsecond are nudged forward by 1 µs each so that they stay
 * distinct (timestamps double as a stable sort key), and that nudge lasts only as long as the burst.
 * Moving the offset back (a clock reset) moves the readings back with it: the clock never freezes
 * ahead of real time + offset.
 */
export interface Clock {
  /** Microseconds since the epoch on the sandbox clock. */
  now(): number;
  /** Current offset from real time, in microseconds. */
  offsetMicros(): number;
  setOffsetMicros(offset: number): void;
}

export interface ClockOptions {
  realNowMs?: () => number;
  initialOffsetMicros?: number;
  onOffsetChange?: (offset: number) => void;
}

/**
 * The process's time origin, read once: `performance.timeOrigin` is a getter that calls into Node's
 * bindings on every read, and a request reads the clock a dozen times (docs/benchmarks.md, round 4).
 */
const TIME_ORIGIN = performance.timeOrigin;

export function createClock(opts: ClockOptions = {}): Clock {
  // Sub-millisecond precision so timestamps carry real microseconds.
  const realNowMs = opts.realNowMs ?? (() => TIME_ORIGIN + performance.now());
  let offset = opts.initialOffsetMicros ?? 0;
  let base = Number.NEGATIVE_INFINITY; // the last real time + offset read
  let last = Number.NEGATIVE_INFINITY; // the last reading handed out
  return {
    now() {
      const t = Math.floor(realNowMs() * 1000) + offset;
      // Ahead of the last reading: take it. Same microsecond (or a burst that briefly outran it): nudge by 1 µs.
      // Behind the last real time + offset (a reset, or the system clock set back): follow it back.
      last = t > last || t < base ? t : last + 1;
      base = t;
      return last;
    },
    offsetMicros: () => offset,
    setOffsetMicros(value) {
      offset = Math.trunc(value);
      opts.onOffsetChange?.(offset);
    },
  };
}

// `YYYY-MM-DDTHH:MM:SS.` of recently formatted seconds, in 64 slots by second (an invoice's created_at
// and expires_at share no second, so one slot would thrash): `toISOString` is the slow part, and a
// list page formats 30 timestamps of a few distinct seconds.
const SLOTS = 64;
const slotSecond = new Float64Array(SLOTS).fill(NaN);
const slotPrefix: string[] = new Array<string>(SLOTS).fill('');

/** `2026-11-22T08:35:58.052291Z` */
export function formatTimestamp(micros: number): string {
  const second = Math.floor(micros / 1_000_000);
  const slot = second & (SLOTS - 1);
  if (slotSecond[slot] !== second) {
    slotSecond[slot] = second;
    slotPrefix[slot] = new Date(second * 1000).toISOString().slice(0, 20);
  }
  return `${slotPrefix[slot]}${String(micros - second * 1_000_000).padStart(6, '0')}Z`;
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/;
// From the start of a run of digits only: tried inside one, it is quadratic (docs/design.md#input-handling).
const DELTA_PART = /(?<!\d)(\d+)\s*([wdhms])/g;
const UNIT_SECONDS: Record<string, number> = { w: 604800, d: 86400, h: 3600, m: 60, s: 1 };

/**
 * Parse `expires_at`: an ISO 8601 date-time, or a delta such as `1w 3d 2h 32m 5s` relative to `now`.
 * Returns microseconds, or null when the text is neither.
 */
export function parseExpiry(text: string, nowMicros: number): number | null {
  const t = text.trim();
  const iso = ISO.exec(t);
  if (iso) {
    const zone = iso[8] ?? 'Z';
    const frac = (iso[7] ?? '').padEnd(6, '0').slice(0, 6);
    const base = `${iso[1]}-${iso[2]}-${iso[3]}T${iso[4]}:${iso[5]}:${iso[6] ?? '00'}${zone === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')}`;
    const ms = Date.parse(base);
    if (Number.isNaN(ms)) return null;
    return ms * 1000 + Number(frac);
  }
  if (!/^(\d+\s*[wdhms]\s*)+$/.test(t)) return null;
  let seconds = 0;
  for (const m of t.matchAll(DELTA_PART))
    seconds += Number(m[1]) * (UNIT_SECONDS[m[2] ?? 's'] ?? 0);
  return nowMicros + seconds * 1_000_000;
}
