import type { MiddlewareHandler } from 'hono';
import { formatTimestamp, type Clock } from '../shared/clock.js';
import type { AppEnv } from './operation.js';

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

/** Recent API requests with their auth outcome, kept in memory (`GET /_sandbox/requests`). */
export function createRequestLog(capacity = 500) {
  const entries: RequestLogEntry[] = [];
  let seq = 0;
  return {
    middleware(clock: Clock): MiddlewareHandler<AppEnv> {
      return async (c, next) => {
        const started = performance.now();
        await next();
        if (c.req.path.startsWith('/docs/assets') || c.req.path === '/_sandbox/requests') return;
        entries.push({
          id: ++seq,
          at: formatTimestamp(clock.now()),
          method: c.req.method,
          path: new URL(c.req.url).pathname,
          operation_id: c.get('operationId') ?? null,
          status: c.res.status,
          auth: c.get('authOutcome') ?? 'none',
          duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
        });
        if (entries.length > capacity) entries.splice(0, entries.length - capacity);
      };
    },
    /** Newest first. */
    page(limit: number, offset: number) {
      const total = entries.length;
      const out: RequestLogEntry[] = [];
      for (let i = total - 1 - offset; i >= 0 && out.length < limit; i--) out.push(entries[i]!);
      return { total, items: out };
    },
  };
}

export type RequestLog = ReturnType<typeof createRequestLog>;
