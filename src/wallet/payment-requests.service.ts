import type { DueJob, DueWork } from '../clock/due-work.js';
import type { TenantClocks } from '../clock/tenant-clocks.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { ApiError } from '../shared/api-error.js';
import {
  requireLiveWorkspace,
  type App,
  type IdentitiesApi,
} from '../identities/identities.api.js';
import { developerCurrency } from '../ledger/accounts.view.js';
import type { Account, LedgerApi } from '../ledger/ledger.api.js';
import { parseExpiry, type Clock } from '../shared/clock.js';
import type { IdFactory } from '../shared/ids.js';
import { parseAmount } from '../shared/money.js';
import { pageMeta, pageRequest } from '../shared/pagination.js';
import { normalizeMobile } from '../transfers/transfers.service.js';
import type {
  PaymentRequestRecord,
  PaymentRequestRepository,
  PaymentRequestStatus,
  Row,
} from './wallet.repo.js';
import { paymentRequestResource } from './wallet.view.js';

/** A year, as the recorded request shows: how long a request waits for its payer unless it says otherwise. */
export const DEFAULT_REQUEST_SECONDS = 365 * 86_400;

/** The payer's page of a request (a sandbox addition: the real payer answers in the wallet app). */
export const PAYMENT_REQUEST_PAGE = '/payment/request';

/** The absolute address of a request's payer page under the sandbox's public URL. */
export const paymentRequestPageUrl = (publicUrl: string, id: string) =>
  `${publicUrl}${PAYMENT_REQUEST_PAGE}/${encodeURIComponent(id)}`;

export type PaymentRequestRow = Row<PaymentRequestRecord>;

export interface PaymentRequestDeps {
  requests: PaymentRequestRepository;
  ledger: LedgerApi;
  identities: IdentitiesApi;
  unitOfWork: UnitOfWork;
  clock: Clock;
  /** Requests live on their owner's tenant clock; new ones tell the due work when they expire. */
  tenants: Pick<TenantClocks, 'within' | 'enter'>;
  dueWork: Pick<DueWork, 'expect'>;
  ids: IdFactory;
  /** The sandbox's public URL, under which each request's payer page lives. */
  publicUrl: () => string;
}

/**
 * When a new request expires: `expires_at` (ISO 8601, as the published clients send it, or a delta such as
 * `1w 3d`, as invoices take it) in the future on the sandbox clock, or `expires_in_seconds` from now, or
 * the default; both at once, an unreadable date or one not in the future is a 400 on `expires_at`.
 */
function expiryOf(body: { expires_in_seconds?: number; expires_at?: string }, now: number): number {
  if (body.expires_at === undefined)
    return now + (body.expires_in_seconds ?? DEFAULT_REQUEST_SECONDS) * 1_000_000;
  if (body.expires_in_seconds !== undefined)
    throw ApiError.field('expires_at', 'Send expires_at or expires_in_seconds, not both.');
  const at = parseExpiry(body.expires_at, now);
  if (at === null)
    throw ApiError.field(
      'expires_at',
      'Enter a valid date/time (ISO 8601) or a delta such as "1w 3d 2h 32m 5s".',
    );
  if (at <= now) throw ApiError.field('expires_at', 'Expiry must be in the future.');
  return at;
}

/**
 * Requests for money from a customer's wallet into one of the owner's accounts. A request moves no
 * money until it is paid; then the amount goes from the payer's wallet to the receiving account in one
 * ledger transaction. Declined and expired requests move nothing.
 */
export function createPaymentRequestService(d: PaymentRequestDeps) {
  const view = (r: Row<PaymentRequestRecord>) =>
    paymentRequestResource(r, {
      paymentUrl: paymentRequestPageUrl(d.publicUrl(), r.id),
      payerEmail: d.identities.userById(r.payer_id)?.email ?? null,
    });

  /** The payer's wallet in the currency: their oldest, the one fixtures and the control API fund. */
  const payerWallet = (payerId: string, currency: string): Account | undefined =>
    d.ledger
      .byOwner('user', payerId)
      .filter((a) => a.currency === currency)
      .at(-1);

  function move(
    row: Row<PaymentRequestRecord>,
    to: Exclude<PaymentRequestStatus, 'pending'>,
  ): void {
    let tx: string | null = null;
    if (to === 'paid') {
      const wallet = payerWallet(row.payer_id, row.currency);
      if (!wallet || wallet.balance < row.amount)
        throw ApiError.general('insufficient_balance', 'The payer has insufficient balance.');
      tx = d.ledger.post('payment_request', row.id, [
        { accountId: wallet.id, amount: -row.amount },
        { accountId: row.receiving_account_id, amount: row.amount },
      ]);
    }
    // An expiry is dated when it fell due, as the clock's other work is.
    d.requests.setStatus(
      row.id,
      to,
      tx,
      to === 'expired' ? Math.min(Number(row.expires_at), d.clock.now()) : d.clock.now(),
    );
  }

  /** The clock's own progress (due work, src/clock/due-work.ts): every pending request past its expiry on its owner's clock expires. */
  function expireDue(): number {
    let expired = 0;
    for (;;) {
      const due = d.requests.dueExpiry(d.clock.now());
      if (!due.length) return expired;
      d.unitOfWork(() =>
        due.forEach((row) => d.tenants.within(row.tenant, () => move(row, 'expired'))),
      );
      expired += due.length;
    }
  }

  /** The request by id; the current request is on its owner's clock from here on. */
  function byId(id: string): PaymentRequestRow | undefined {
    const row = d.requests.byId(id);
    if (row) d.tenants.enter(d.identities.userById(row.owner_id)?.workspace_id ?? null);
    return row;
  }

  return {
    create(
      app: App,
      body: {
        payer_contact_info: string;
        receiving_account: string;
        amount: number | string;
        message?: string;
        expires_in_seconds?: number;
        expires_at?: string;
      },
    ) {
      const account = d.ledger.get(body.receiving_account);
      if (!account || account.owner_type !== 'user' || account.owner_id !== app.owner_id) {
        throw ApiError.field(
          'receiving_account',
          `Account "${body.receiving_account}" is not one of your accounts.`,
        );
      }
      const amount = parseAmount(body.amount);
      const now = d.clock.now();
      const expiresAt = expiryOf(body, now);
      const contact = body.payer_contact_info.trim();
      // Only customers of the app's own tenant: anyone else answers as unknown, so nothing leaks.
      const payer = d.identities.customerByLogin(normalizeMobile(contact), app.workspace_id);
      if (!payer)
        throw ApiError.field(
          'payer_contact_info',
          `No customer has the email or mobile number "${contact}".`,
          'unknown_target',
        );
      if (!payerWallet(payer.id, account.currency)) {
        throw ApiError.field(
          'payer_contact_info',
          `The payer has no ${developerCurrency(account.currency)} wallet.`,
          'unknown_target',
        );
      }
      const id = d.ids();
      d.dueWork.expect(expiresAt);
      return d.unitOfWork(() => {
        d.requests.insert({
          id,
          owner_id: app.owner_id,
          receiving_account_id: account.id,
          payer_id: payer.id,
          payer_contact_info: contact,
          amount,
          currency: account.currency,
          message: body.message ?? '',
          status: 'pending',
          ledger_transaction_id: null,
          created_at: now,
          expires_at: expiresAt,
          updated_at: now,
        });
        return view(d.requests.byId(id)!);
      });
    },

    /**
     * The payer pays or declines, or the request expires, now: `POST /_sandbox/payment-requests/{id}/status`
     * and the payer's page (which names the logged-in payer: anyone else's request answers as unknown).
     * A request past its expiry has expired before the handler ran (the due work runs first), so it is never paid late.
     */
    setStatus(id: string, to: Exclude<PaymentRequestStatus, 'pending'>, by?: { payerId: string }) {
      return d.unitOfWork(() => {
        const row = byId(id);
        if (!row || (by && row.payer_id !== by.payerId)) throw ApiError.notFound();
        requireLiveWorkspace(
          d.identities,
          { type: 'user', id: row.owner_id },
          'payment request',
          `it cannot become ${to}.`,
        );
        if (row.status !== 'pending') {
          throw ApiError.general(
            'invalid_state_transition',
            `Payment request is ${row.status}; only a pending request can become ${to}.`,
          );
        }
        move(row, to);
        return view(d.requests.byId(id)!);
      });
    },

    /**
     * The requester cancels a pending request (`DELETE /v3/payment-requests/{id}/`): `canceled`, nothing
     * moves. Another owner's id answers as unknown; a request that is no longer pending (a request past
     * its expiry on the sandbox clock is `expired` first) is 409.
     */
    cancel(ownerId: string, id: string) {
      return d.unitOfWork(() => {
        const row = d.requests.forOwner(id, ownerId);
        if (!row) throw ApiError.notFound();
        if (row.status !== 'pending') {
          throw ApiError.general(
            'invalid_state_transition',
            `Payment request is ${row.status}; only a pending request can be canceled.`,
          );
        }
        move(row, 'canceled');
        return view(d.requests.byId(id)!);
      });
    },

    expireDue,
    /** The same as due work, registered by the module. */
    dueJob: {
      name: 'payment-requests.expiry',
      run: () => void expireDue(),
      earliest: d.requests.earliestExpiry,
    } satisfies DueJob,

    /** One request by id, for its payer's page. */
    find: byId,

    /** The wallet a payment of this request would debit, if the payer still has one. */
    payerWallet: (row: PaymentRequestRow) => payerWallet(row.payer_id, row.currency),

    /** The newest requests of every owner, for the QA dashboard. */
    recent(limit: number) {
      return d.requests.recent(limit).map(view);
    },

    /** One request of the owner (anyone else's answers as unknown). */
    get(ownerId: string, id: string) {
      const row = d.requests.forOwner(id, ownerId);
      if (!row) throw ApiError.notFound();
      return view(row);
    },

    list(ownerId: string, query: { page?: number; per_page?: number }) {
      const req = pageRequest(query);
      return {
        'payment-requests': d.requests.page(ownerId, req.limit, req.offset).map(view),
        meta: pageMeta(req, d.requests.count(ownerId)),
      };
    },
  };
}

export type PaymentRequestService = ReturnType<typeof createPaymentRequestService>;
