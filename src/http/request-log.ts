import type { MiddlewareHandler } from 'hono';
import { formatTimestamp, type Clock } from '../shared/clock.js';
import { itemAt, required } from '../shared/defined.js';
import { CLIENT_CLOSED_STATUS } from './client-closed.js';
import type { AppEnv } from './operation.js';
import { rawPath, rawQuery } from './request-url.js';

export interface RequestLogEntry {
  id: number;
  at: string;
  method: string;
  path: string;
  operation_id: string | null;
  status: number;
  auth: string;
  duration_ms: number;
  /** The query string as sent, cut to `EXCERPT_BYTES`; null without one. */
  query: string | null;
  /** The start of the body an API operation read, cut to `EXCERPT_BYTES`; null without one. */
  body_excerpt: string | null;
  /** The injected fault that answered (or delayed) the request, by id; null for none. */
  fault: string | null;
}

/** Bytes kept per text field (path, auth outcome); a longer value is kept as a string instead. */
const TEXT_SLOT = 512;
/** Bytes kept of a query string or a body: a longer one is cut, never kept whole (bounded memory). */
export const EXCERPT_BYTES = 256;
const NUMBERS = 4; // id, time (µs), status, duration (ms)
const FIELDS = 4; // path, auth outcome (up to TEXT_SLOT, else overflow), query, body excerpt (cut)

/**
 * Requests the log leaves out: the log's own reads, the browsers' icon, the API reference's assets, and the QA dashboard
 * with its assets and its live poll (it polls every 2 s; logging that would drown what QA looks for).
 */
const UNLOGGED =
  /^\/(favicon\.ico$|docs\/assets|_sandbox\/?$|_sandbox\/requests\/?$|_sandbox\/dashboard\/)/;

/** How many bytes of `bytes` end on a whole UTF-8 character, at most `max`. */
function wholeChars(bytes: Uint8Array, max: number): number {
  if (bytes.length <= max) return bytes.length;
  let end = max;
  while (end > 0 && (itemAt(bytes, end) & 0xc0) === 0x80) end--; // step back over continuation bytes
  return end;
}

/** Told of each logged request (the terminal log of `paysandbox start`); absent under --quiet. */
export type RequestTap = (
  method: string,
  path: string,
  status: number,
  auth: string,
  durationMs: number,
  fault: string | null,
) => void;

/**
 * Recent API requests with their auth outcome, kept in memory (`GET /_sandbox/requests`).
 *
 * The last `capacity` requests live in preallocated typed arrays: numbers as numbers, the path, the
 * auth outcome, the query string and a body excerpt as UTF-8 bytes, the method and operationId as
 * references to strings that already exist.
 * Keeping one object (and fresh strings) per request alive makes V8 grow its young generation to the
 * maximum under load (about 25 MB more RSS, docs/benchmarks.md); this keeps nothing a request
 * allocated. Entries are decoded only when the log is read.
 */
export function createRequestLog(capacity = 500) {
  const numbers = new Float64Array(capacity * NUMBERS);
  const text = Buffer.alloc(capacity * FIELDS * TEXT_SLOT);
  // -1: kept in `overflow`; -2: absent (null).
  const textLength = new Int32Array(capacity * FIELDS);
  const overflow: Array<string | undefined> = new Array(capacity * FIELDS).fill(undefined);
  const methods: string[] = new Array(capacity).fill('');
  const operations: Array<string | null> = new Array(capacity).fill(null);
  const faults: Array<string | null> = new Array(capacity).fill(null);
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
  /** A query string or body, cut to EXCERPT_BYTES on a character boundary; never kept as a string. */
  function putExcerpt(field: number, value: string | Buffer | null | undefined): void {
    const at = field * TEXT_SLOT;
    if (value === null || value === undefined) textLength[field] = -2;
    else if (typeof value === 'string')
      textLength[field] = text.write(value, at, EXCERPT_BYTES, 'utf8');
    else textLength[field] = value.copy(text, at, 0, wholeChars(value, EXCERPT_BYTES));
  }
  const getText = (field: number) => {
    const length = itemAt(textLength, field);
    return length < 0
      ? required(overflow[field], `the long text of field ${field}`)
      : text.toString('utf8', field * TEXT_SLOT, field * TEXT_SLOT + length);
  };
  const getExcerpt = (field: number) => (textLength[field] === -2 ? null : getText(field));

  return {
    middleware(clock: Clock): MiddlewareHandler<AppEnv> {
      return async (c, next) => {
        const started = performance.now();
        await next();
        const path = rawPath(c); // as sent, without the query; no URL parsing per request
        if (UNLOGGED.test(path)) return;
        const id = ++seq;
        const slot = (id - 1) % capacity;
        numbers[slot * NUMBERS] = id;
        numbers[slot * NUMBERS + 1] = clock.now();
        // A client that left while the request was served (a long poll given up, a cut body): its
        // answer can reach no one, whatever status the handler chose.
        const gone = c.env?.outgoing?.destroyed === true || c.res.status === CLIENT_CLOSED_STATUS;
        const status = gone ? CLIENT_CLOSED_STATUS : c.res.status;
        numbers[slot * NUMBERS + 2] = status;
        const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
        numbers[slot * NUMBERS + 3] = durationMs;
        methods[slot] = c.req.method;
        operations[slot] = c.get('operationId') ?? null;
        const fault = c.get('fault') ?? null;
        faults[slot] = fault;
        // `none`: no credentials were sent; a client gone before they were checked is `not checked`.
        const auth = c.get('authOutcome') ?? (gone ? 'not checked' : 'none');
        putText(slot * FIELDS, path);
        putText(slot * FIELDS + 1, auth);
        putExcerpt(slot * FIELDS + 2, rawQuery(c));
        putExcerpt(slot * FIELDS + 3, c.get('requestBody'));
        if (tap !== null) tap(c.req.method, path, status, auth, durationMs, fault);
      };
    },
    /** Hear of every request as it is logged (one listener; null to stop). */
    setTap(listener: RequestTap | null): void {
      tap = listener;
    },
    /** The id of the newest entry (0 before the first): changes whenever a request is logged. */
    latestId: () => seq,
    /** Newest first. */
    page(limit: number, offset: number) {
      const total = Math.min(seq, capacity);
      const out: RequestLogEntry[] = [];
      for (let i = total - 1 - offset; i >= 0 && out.length < limit; i--) {
        // Position i of the retained entries, oldest first, is entry number seq - total + 1 + i.
        const slot = (seq - total + i) % capacity;
        out.push({
          id: itemAt(numbers, slot * NUMBERS),
          at: formatTimestamp(itemAt(numbers, slot * NUMBERS + 1)),
          method: itemAt(methods, slot),
          path: getText(slot * FIELDS),
          operation_id: itemAt(operations, slot),
          status: itemAt(numbers, slot * NUMBERS + 2),
          auth: getText(slot * FIELDS + 1),
          duration_ms: itemAt(numbers, slot * NUMBERS + 3),
          query: getExcerpt(slot * FIELDS + 2),
          body_excerpt: getExcerpt(slot * FIELDS + 3),
          fault: itemAt(faults, slot),
        });
      }
      return { total, items: out };
    },
  };
}

export type RequestLog = ReturnType<typeof createRequestLog>;
