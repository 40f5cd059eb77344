import type { Context } from 'hono';
import type { AppEnv } from './operation.js';

/**
 * The status the request log records for a request whose client went away before its body arrived
 * (nginx's "client closed request"): no response can reach it, and it is no server error.
 */
export const CLIENT_CLOSED_STATUS = 499;

/**
 * Whether `err` (thrown while reading the request) means the client closed the connection mid-body:
 * Node's request was aborted before it was complete, or the read failed with Node's `aborted` error.
 */
export function clientClosed(c: Context<AppEnv>, err: unknown): boolean {
  const incoming = c.env?.incoming;
  if (incoming && !incoming.complete && (incoming.destroyed || incoming.errored)) return true;
  const e = err as { code?: unknown; message?: unknown } | null;
  return typeof e === 'object' && e !== null && e.code === 'ECONNRESET' && e.message === 'aborted';
}

/** The answer to a request whose client closed: never sent, only logged (status 499, no stack trace). */
export function clientClosedResponse(): Response {
  return new Response(null, { status: CLIENT_CLOSED_STATUS });
}
