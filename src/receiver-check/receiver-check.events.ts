import { buildCallbackRequest, type CallbackRequest } from '../callbacks/callback.transport.js';
import type { EventName } from '../events/outbox.repo.js';
import { eventBody } from '../invoices/invoice.view.js';
import type { IdFactory } from '../shared/ids.js';
import { UNITS_PER_PESO } from '../shared/money.js';

/** How a check presents the merchant token: the right one, none at all, or a wrong one. */
export type TokenMode = 'right' | 'missing' | 'wrong';

/**
 * One invoice of a run. Synthetic: a fresh 32-hex id like the real service's, and an external
 * transaction id that names the run, so a merchant backend (and its logs) can tell these apart from
 * its real invoices.
 */
export interface SyntheticInvoice {
  id: string;
  currency: string;
  amount: bigint;
  external_transaction_id: string;
}

/** One event as the sandbox stores it in its outbox: an id (stable across redeliveries) and the exact body. */
export interface SyntheticEvent {
  event_id: string;
  name: EventName;
  invoice_id: string;
  body: string;
}

/** Every invoice of a run is for the same amount; the partial payment of the out-of-order check is 40 %. */
const AMOUNT = 100n * UNITS_PER_PESO;
const PARTIAL = 40n * UNITS_PER_PESO;

export function externalIdPrefix(runId: string): string {
  return `check-receiver-${runId.slice(0, 12)}`;
}

export function syntheticInvoice(ids: IdFactory, runId: string, label: string): SyntheticInvoice {
  return {
    id: ids(),
    currency: 'PHP',
    amount: AMOUNT,
    external_transaction_id: `${externalIdPrefix(runId)}-${label}`,
  };
}

/**
 * An event of `invoice` with the body the sandbox itself sends (docs/design.md#invoice-lifecycle-and-events, `eventBody`):
 * `invoice.fully_paid` has received the full amount, `invoice.updated` a partial payment.
 */
export function syntheticEvent(
  ids: IdFactory,
  name: 'invoice.fully_paid' | 'invoice.updated',
  invoice: SyntheticInvoice,
): SyntheticEvent {
  const received = name === 'invoice.fully_paid' ? invoice.amount : PARTIAL;
  return {
    event_id: ids(),
    name,
    invoice_id: invoice.id,
    body: JSON.stringify(eventBody(name, { ...invoice, amount_received: received })),
  };
}

/** A token that is certainly not the merchant's: same shape as the sandbox's tokens (32 hex). */
export function wrongToken(ids: IdFactory, token: string): string {
  const candidate = ids();
  return candidate === token ? `${candidate}0` : candidate;
}

/**
 * The request the sandbox's callback engine would send for `event` (its own builder, so headers and
 * body never drift from real deliveries). `callback_auth` is forced per check: the engine would send
 * the token to an https URL only, while these checks decide themselves whether it goes along.
 */
export function callbackRequestFor(
  event: SyntheticEvent,
  url: string,
  token: string,
  mode: TokenMode,
  attempt: number,
  ids: IdFactory,
): CallbackRequest {
  const merchant = {
    callback_auth: mode === 'missing' ? ('never' as const) : ('always' as const),
    merchant_api_token: mode === 'wrong' ? wrongToken(ids, token) : token,
  };
  return buildCallbackRequest(
    { event_id: event.event_id, body: event.body },
    merchant,
    url,
    attempt,
  );
}
