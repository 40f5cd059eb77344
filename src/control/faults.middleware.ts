import type { Context, MiddlewareHandler } from 'hono';
import { developerBearer } from '../auth/authenticate.js';
import type { IdentitiesApi } from '../identities/identities.api.js';
import { readBody } from '../http/body-limit.js';
import { inRequestScope, type AppEnv } from '../http/operation.js';
import { rawPath } from '../http/request-url.js';
import { surfaceOfPath } from '../shared/api-error.js';
import { INJECTED_FAULT, type FaultStore } from './faults.service.js';

const NO_BODY = new Set([204, 205, 304]);
const TOKEN = /^(token|bearer)\s+(\S+)\s*$/i;
/** Bytes of a faulted request's body kept for the request log (it keeps an excerpt of them). */
const BODY_PEEK = 4096;

/**
 * The `auth` the request log would have shown had no fault answered (docs/faults.md#the-request-log):
 * whose token it is, or whose HMAC key, without checking a signature or using up a nonce.
 */
export function wouldBeAuth(
  identities: IdentitiesApi,
  read: (name: string) => string | undefined,
  now: number,
): string {
  const key = read('access_key') ?? read('access-key');
  if (key !== undefined && developerBearer(read) === undefined) {
    return identities.appForAuth(key)
      ? `hmac:${key} (signature not checked)`
      : 'invalid_access_key';
  }
  const authorization = read('authorization');
  if (authorization === undefined)
    return (read('access_signature') ?? read('access-signature')) ? 'missing_credentials' : 'none';
  const token = TOKEN.exec(authorization)?.[2];
  if (token === undefined) return 'invalid_token';
  const merchant = identities.merchantByToken(token);
  if (merchant) return `merchant:${merchant.id}`;
  const app = identities.appTokens.appOfToken(token, now);
  return app ? `bearer:${app.api_key}` : 'invalid_token';
}

async function bodyExcerpt(c: Context<AppEnv>): Promise<Buffer | undefined> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'DELETE')
    return undefined;
  try {
    // The body limit ran before this (at most 64 KiB).
    const body = await readBody(c);
    return body.length ? body.subarray(0, BODY_PEEK) : undefined;
  } catch {
    return undefined; // an unreadable body is simply not shown
  }
}

/**
 * Applies injected faults to public API requests before any route runs. Latency is a real timer on
 * purpose: it is what a client under test must survive. A fault that answers marks the request for the
 * request log: which fault, the `auth` it would have had, the start of its body.
 */
export function faultMiddleware(
  store: FaultStore,
  identities: IdentitiesApi,
  now: () => number,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const hit = store.take(c.req.method, c.req.path, rawPath(c));
    if (!hit) return next();
    c.set('fault', hit.fault.id);
    // The operation the fault stands in for, so that the request log filters by operation still find it.
    const operationId = c.var.operationAt?.(c.req.method, c.req.path);
    if (operationId !== undefined) c.set('operationId', operationId);
    if (hit.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, hit.latencyMs));
    c.header('X-Sandbox-Fault', hit.fault.id);
    // Only slowed: the rest of the request goes on in its tenant scope (the await above left it).
    if (hit.status === undefined) return inRequestScope(c, next);
    c.set(
      'authOutcome',
      wouldBeAuth(identities, (name) => c.req.header(name), now()),
    );
    const body = await bodyExcerpt(c);
    if (body) c.set('requestBody', body);
    if (NO_BODY.has(hit.status)) return c.body(null, hit.status as 204);
    // No body named: the error body of `injected_fault` in the shape of the path's API.
    const errorBody =
      hit.body !== undefined
        ? hit.body
        : INJECTED_FAULT.body(surfaceOfPath(c.req.path), c.var.debugErrors ?? true);
    return c.json(errorBody as object, hit.status as 500);
  };
}
