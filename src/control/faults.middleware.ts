import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/operation.js';
import { surfaceOfPath } from '../shared/api-error.js';
import { INJECTED_FAULT, type FaultStore } from './faults.service.js';

const NO_BODY = new Set([204, 205, 304]);

/**
 * Applies injected faults to public API requests before any route runs. Latency is a real timer on
 * purpose: it is what a client under test must survive.
 */
export function faultMiddleware(store: FaultStore): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const hit = store.take(c.req.method, c.req.path);
    if (!hit) return next();
    if (hit.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, hit.latencyMs));
    c.header('X-Sandbox-Fault', hit.fault.id);
    if (hit.status === undefined) return next();
    if (NO_BODY.has(hit.status)) return c.body(null, hit.status as 204);
    // No body named: the error body of `injected_fault` in the shape of the path's API.
    const body = hit.body !== undefined ? hit.body : INJECTED_FAULT.body(surfaceOfPath(c.req.path), c.var.debugErrors ?? true);
    return c.json(body as object, hit.status as 500);
  };
}
