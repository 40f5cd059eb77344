import type { Merchant } from '../identities/identities.api.js';
import type { PinnedAddress } from './callback-target.guard.js';

// One callback attempt as the dispatcher builds it and a transport sends it (docs/design.md#callbacks).

/** Bytes of a receiver's answer kept in the delivery log; the rest is never read. */
export const EXCERPT_BYTES = 2048;
export const USER_AGENT = 'paysandbox-callbacks/1';

export interface CallbackRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface CallbackOutcome {
  /** A 2xx within the timeout. */
  delivered: boolean;
  statusCode: number | null;
  excerpt: string | null;
  error: string | null;
  durationMs: number;
}

/** Whether the merchant token goes with a callback to `url` (docs/design.md#callbacks, merchant `callback_auth`). */
export function sendsToken(mode: Merchant['callback_auth'], url: string): boolean {
  if (mode === 'always') return true;
  if (mode === 'never') return false;
  return /^https:/i.test(url);
}

/**
 * The request of one attempt: the stored event body byte for byte, and the headers the real service
 * sends (Content-Type, the `Token` when due) plus the sandbox's event id (stable across attempts and
 * redeliveries, for the receiver's de-duplication) and attempt number.
 */
export function buildCallbackRequest(
  delivery: { event_id: string; body: string },
  merchant: Pick<Merchant, 'callback_auth' | 'merchant_api_token'>,
  url: string,
  attempt: number,
): CallbackRequest {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Sandbox-Event-Id': delivery.event_id,
    'X-Sandbox-Delivery-Attempt': String(attempt),
  };
  if (sendsToken(merchant.callback_auth, url))
    headers.Authorization = `Token ${merchant.merchant_api_token}`;
  return { url, headers, body: delivery.body };
}

/**
 * How the dispatcher sends one attempt; `close` ends every request still running (the sandbox stops).
 * `pinned`: the address the private-callback guard checked; the connection goes there and nowhere else.
 */
export interface CallbackTransport {
  send(req: CallbackRequest, timeoutMs: number, pinned?: PinnedAddress): Promise<CallbackOutcome>;
  close(): void;
}
