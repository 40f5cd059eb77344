import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../shared/api-error.js';
import { ok, type Handlers } from '../http/operation.js';
import type { Merchant } from '../identities/identities.api.js';
import { formatTimestamp } from '../shared/clock.js';
import { pageMeta, pageRequest } from '../shared/pagination.js';
import { sendsToken } from './callback.transport.js';

/** Callbacks the example receiver keeps (the oldest go first); it is a window on what arrived, not a log. */
export const INBOX_CAPACITY = 200;
/** Bytes of a received body kept. */
const BODY_BYTES = 16 * 1024;

/**
 * What a merchant would make of the `Authorization` header: `valid` (the merchant's token), `invalid`
 * (another token: a merchant answers 401), `missing` (none, although the merchant's `callback_auth`
 * sends one to this URL) or `not_sent` (none, as expected: the real service sends no token to an http
 * URL under `https-only`, or never; verify the invoice with `GET /v1/invoices/{id}` before acting).
 */
export type InboxVerdict = 'valid' | 'invalid' | 'missing' | 'not_sent';

export interface InboxEntry {
  id: number;
  received_at: string;
  merchant_id: string;
  event_id: string | null;
  event: string | null;
  invoice_id: string | null;
  delivery_attempt: number | null;
  headers: Record<string, string>;
  body: string;
  authorization: InboxVerdict;
  authorization_note: string;
  /** True when the event id is one this sandbox sent (a callback from elsewhere is kept, and says so). */
  from_this_sandbox: boolean;
}

export interface InboxDeps {
  /** A tenant's time now: a callback is received on its merchant's workspace clock, as its delivery was sent. */
  nowOf: (workspaceId: string | null) => number;
  merchantById: (id: string) => Merchant | undefined;
  /** Whether this sandbox has a delivery of this event id for this invoice. */
  knownEvent: (invoiceId: string, eventId: string) => boolean;
  /** The merchant whose invoice this is (undefined: no such invoice). */
  invoiceMerchantOf: (invoiceId: string) => string | undefined;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Check `Authorization` as a merchant's handler would (docs/design.md#callbacks). */
export function judgeAuthorization(
  merchant: Pick<Merchant, 'callback_auth' | 'merchant_api_token'>,
  header: string | undefined,
  url: string,
) {
  if (header === undefined || header === '') {
    return sendsToken(merchant.callback_auth, url)
      ? {
          verdict: 'missing' as const,
          note: `No Authorization, although callback_auth "${merchant.callback_auth}" sends the token to ${url}: a merchant answers 401.`,
        }
      : {
          verdict: 'not_sent' as const,
          note:
            `No Authorization, as expected: callback_auth "${merchant.callback_auth}" sends no token to ${url}. ` +
            'Verify the invoice with GET /v1/invoices/{id} before acting on it.',
        };
  }
  const m = /^(?:Token|Bearer)\s+(\S+)$/i.exec(header.trim());
  if (m && sameToken(m[1]!, merchant.merchant_api_token))
    return { verdict: 'valid' as const, note: "Authorization carries this merchant's API token." };
  return {
    verdict: 'invalid' as const,
    note: "Authorization does not carry this merchant's API token: a merchant answers 401.",
  };
}

/** The built-in example receiver: `POST /_sandbox/inbox/{merchant_id}` records, `GET /_sandbox/inbox` lists. */
export function createInbox(d: InboxDeps) {
  let entries: InboxEntry[] = [];
  let seq = 0;
  const listeners = new Set<() => void>();

  /**
   * A callback this sandbox sent for `invoiceId` is taken only by the receiver of a merchant of the same
   * tenant as the invoice's (the base data counts as one): the rule merchant URLs are held to when they
   * are set, enforced again where the callback arrives, since a name of this machine the sandbox does not
   * know as its own (its hostname, a LAN address, a tunnel) can reach it. 403, not recorded.
   */
  function refuseOtherTenant(receiver: Merchant, invoiceId: string): void {
    const senderId = d.invoiceMerchantOf(invoiceId);
    const sender = senderId === undefined ? undefined : d.merchantById(senderId);
    if (sender === undefined || sender.workspace_id === receiver.workspace_id) return;
    throw new ApiError('callback_of_other_workspace', {
      non_field_errors: [
        `This callback is of invoice ${invoiceId} of merchant ${sender.id}, which is not of the workspace of merchant ${receiver.id} (the base data counts as one): the example receiver takes only the callbacks of its own workspace's merchants. Not recorded.`,
      ],
    });
  }

  return {
    receive(
      merchantId: string,
      headers: Record<string, string>,
      body: string,
      url: string,
    ): InboxEntry {
      const merchant = d.merchantById(merchantId);
      if (!merchant) throw ApiError.notFound();
      const { verdict, note } = judgeAuthorization(merchant, headers.authorization, url);
      let event: { name?: string; data?: { id?: string } } | undefined;
      try {
        event = (JSON.parse(body) as { event?: typeof event }).event;
      } catch {
        event = undefined;
      }
      const eventId = headers['x-sandbox-event-id'] ?? null;
      const attempt = Number(headers['x-sandbox-delivery-attempt']);
      const invoiceId = typeof event?.data?.id === 'string' ? event.data.id : null;
      const fromThisSandbox =
        eventId !== null && invoiceId !== null && d.knownEvent(invoiceId, eventId);
      if (fromThisSandbox && invoiceId !== null) refuseOtherTenant(merchant, invoiceId);
      const entry: InboxEntry = {
        id: (seq += 1),
        received_at: formatTimestamp(d.nowOf(merchant.workspace_id)),
        merchant_id: merchant.id,
        event_id: eventId,
        event: typeof event?.name === 'string' ? event.name : null,
        invoice_id: invoiceId,
        delivery_attempt: Number.isInteger(attempt) && attempt > 0 ? attempt : null,
        headers,
        body: body.slice(0, BODY_BYTES),
        authorization: verdict,
        authorization_note: note,
        from_this_sandbox: fromThisSandbox,
      };
      entries.unshift(entry);
      if (entries.length > INBOX_CAPACITY) entries.length = INBOX_CAPACITY;
      for (const l of listeners) l();
      return entry;
    },
    /** Whether the merchant exists (whose receiver this would be). */
    hasMerchant(merchantId: string): boolean {
      return d.merchantById(merchantId) !== undefined;
    },
    list(filter: { merchant_id?: string; invoice_id?: string } = {}): InboxEntry[] {
      return entries.filter(
        (e) =>
          (!filter.merchant_id || e.merchant_id === filter.merchant_id) &&
          (!filter.invoice_id || e.invoice_id === filter.invoice_id),
      );
    },
    clear(): void {
      entries = [];
    },
    /** Hear of every callback that arrives (long-polls). */
    onReceive(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type Inbox = ReturnType<typeof createInbox>;

/** The headers worth showing, lowercased (hop-by-hop ones left out). */
function receivedHeaders(raw: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  raw.forEach((value, name) => {
    if (!['connection', 'keep-alive', 'transfer-encoding', 'host'].includes(name))
      out[name] = value;
  });
  return out;
}

/** The QA dashboard's inbox panel (a browser opening a merchant's inbox URL lands there). */
export const INBOX_PANEL = '/_sandbox/#inbox';

interface InboxQuery {
  merchant_id?: string;
  invoice_id?: string;
  page?: number;
  per_page?: number;
}

/** receiveInboxCallback, listInbox, readMerchantInbox, clearInbox (openapi.yaml, tag `sandbox`). */
export function inboxHandlers(inbox: Inbox): Handlers {
  const page = (q: InboxQuery) => {
    const all = inbox.list(q);
    const req = pageRequest(q);
    return {
      callbacks: all.slice(req.offset, req.offset + req.limit),
      meta: pageMeta(req, all.length),
    };
  };
  return {
    receiveInboxCallback: ({ c, params, rawBody }) => {
      const entry = inbox.receive(
        params.merchant_id,
        receivedHeaders(c.req.raw.headers),
        rawBody.toString('utf8'),
        c.req.url,
      );
      return ok({ received: true as const, entry });
    },
    listInbox: ({ query }) => ok(page(query as InboxQuery)),
    // The merchant's callback_url opened in a browser: the dashboard's inbox panel (not a 405).
    readMerchantInbox: ({ c, params, query }) => {
      if (!inbox.hasMerchant(params.merchant_id)) throw ApiError.notFound();
      if ((c.req.header('accept') ?? '').includes('text/html'))
        return { status: 302, headers: { location: INBOX_PANEL } };
      return ok(page({ ...(query as InboxQuery), merchant_id: params.merchant_id }));
    },
    clearInbox: () => {
      inbox.clear();
      return { status: 204 as const };
    },
  };
}
