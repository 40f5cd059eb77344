import type { MiddlewareHandler } from 'hono';
import { formatTimestamp, type Clock } from '../shared/clock.js';
import type { AppEnv } from './operation.js';
import { rawPath } from './request-url.js';

export interface RequestLogEntry {
  id: number;
  at: string;
  method: string;
  path: string;
  operation_id: string | null;
  status: number;
  auth: string;
  duration_ms: number;
}

/** Bytes kept per text field (path, auth outcome); a longer value is kept as a string instead. */
const TEXT_SLOT = 512;
const NUMBERS = 4; // id, time (µs), status, duration (ms)

/** Told of each logged request (the terminal log of `paysandbox start`); absent under --quiet. */
export type RequestTap = (method: string, path: string, status: number, auth: string, durationMs: number) => void;

/**
 * Recent API requests with their auth outcome, kept in memory (`GET /_sandbox/requests`).
 *
 * The last `capacity` requests live in preallocated typed arrays: numbers as numbers, the path and the
 * auth outcome as UTF-8 bytes, the method and operationId as references to strings that already exist.
 * Keeping one object (and fresh strings) per request alive makes V8 grow its young generation to the
 * maximum under load (about 25 MB more RSS, docs/benchmarks.md); this keeps nothing a request
 * allocated. Entries are decoded only when the log is read.
 */
export function createRequestLog(capacity = 500) {
  const numbers = new Float64Array(capacity * NUMBERS);
  const text = Buffer.alloc(capacity * 2 * TEXT_SLOT);
  const textLength = new Int32Array(capacity * 2);
  const overflow: Array<string | undefined> = new Array(capacity * 2).fill(undefined);
  const methods: string[] = new Array(capacity).fill('');
  const operations: Array<string | null> = new Array(capacity).fill(null);
  let seq = 0;
  let tap: RequestTap | null = null;

  function putText(field: number, value: string): void {
    const at = field * TEXT_SLOT;
    // Three bytes per UTF-16 unit at most: short values skip the exact byte count.
    if (value.length * 3 <= TEXT_SLOT || Buffer.byteLength(value) <= TEXT_SLOT) {
      textLength[field] = text.write(value, at, TEXT_SLOT, 'utf8');
      overflow[field] = undefined;
    } else {
      textLength[field] = -1;
      overflow[field] = value;
    }
  }
  const getText = (field: number) =>
    textLength[field]! < 0 ? overflow[field]! : text.toString('utf8', field * TEXT_SLOT, field * TEXT_SLOT + textLength[field]!);

  return {
    middleware(clock: Clock): MiddlewareHandler<AppEnv> {
      return async (c, next) => {
        const started = performance.now();
        await next();
        const path = rawPath(c); // as sent, without the query; no URL parsing per request
        if (path.startsWith('/docs/assets') || path === '/_sandbox/requests' || path === '/_sandbox/requests/') return;
        const id = ++seq;
        const slot = (id - 1) % capacity;
        numbers[slot * NUMBERS] = id;
        numbers[slot * NUMBERS + 1] = clock.now();
        numbers[slot * NUMBERS + 2] = c.res.status;
        const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
        numbers[slot * NUMBERS + 3] = durationMs;
        methods[slot] = c.req.method;
        operations[slot] = c.get('operationId') ?? null;
        const auth = c.get('authOutcome') ?? 'none';
        putText(slot * 2, path);
        putText(slot * 2 + 1, auth);
        if (tap !== null) tap(c.req.method, path, c.res.status, auth, durationMs);
      };
    },
    /** Hear of every request as it is logged (one listener; null to stop). */
    setTap(listener: RequestTap | null): void {
      tap = listener;
    },
    /** Newest first. */
    page(limit: number, offset: number) {
      const total = Math.min(seq, capacity);
      const out: RequestLogEntry[] = [];
      for (let i = total - 1 - offset; i >= 0 && out.length < limit; i--) {
        // Position i of the retained entries, oldest first, is entry number seq - total + 1 + i.
        const slot = (seq - total + i) % capacity;
        out.push({
          id: numbers[slot * NUMBERS]!,
          at: formatTimestamp(numbers[slot * NUMBERS + 1]!),
          method: methods[slot]!,
          path: getText(slot * 2),
          operation_id: operations[slot]!,
          status: numbers[slot * NUMBERS + 2]!,
          auth: getText(slot * 2 + 1),
          duration_ms: numbers[slot * NUMBERS + 3]!,
        });
      }
      return { total, items: out };
    },
  };
}

export type RequestLog = ReturnType<typeof createRequestLog>;
