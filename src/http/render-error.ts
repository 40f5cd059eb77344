import type { Context } from 'hono';
import { surfaceOfPath, toApiError, type ErrorSurface } from '../shared/api-error.js';

/**
 * The one renderer of errors, for the API, the hosted page, the control guard and the dashboard
 * (like Hono's `HTTPException.getResponse()`, but through the context so headers set earlier stay).
 * Anything that is not an ApiError is the sandbox's own failure: a 500 that says nothing more.
 */
export function renderError(
  c: Context,
  err: unknown,
  opts: { headers?: Record<string, string>; surface?: ErrorSurface } = {},
): Response {
  const e = toApiError(err);
  const vars = c.var as { errorSurface?: ErrorSurface; debugErrors?: boolean };
  // The operation's API once routed; before that (or for a path no operation has) the caller's or the path's.
  const surface = opts.surface ?? vars.errorSurface ?? surfaceOfPath(c.req.path);
  return c.json(e.body(surface, vars.debugErrors ?? true), e.status as 400, opts.headers);
}
