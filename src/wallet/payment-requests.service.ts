import type { UnitOfWork } from '../db/unit-of-work.js';
import { ApiError } from '../shared/api-error.js';
import type { App, IdentitiesApi } from '../identities/identities.api.js';
import { developerCurrency } from '../ledger/accounts.view.js';
import type { Account, LedgerApi } from '../ledger/ledger.api.js';
import type { Clock } from '../shared/clock.js';
import type { IdFactory } from '../shared/ids.js';
import { parseAmount } from '../shared/money.js';
import { pageMeta, pageRequest } from '../shared/pagination.js';
import { normalizeMobile } from '../transfers/transfers.service.js';
import type { PaymentRequestRecord, PaymentRequestRepository, PaymentRequestStatus, Row } from './wallet.repo.js';
import { paymentRequestResource } from './wallet.view.js';

/** A week: how long a request waits for its payer unless the request says otherwise. */
export const DEFAULT_REQUEST_SECONDS = 7 * 86_400;

/** The payer's page of a request (a sandbox addition: the real payer answers in the wallet app). */
export const PAYMENT_REQUEST_PAGE = '/payment/request';

/** The absolute address of a request's payer page under the sandbox's public URL. */
export const paymentRequestPageUrl = (publicUrl: string, id: string) => `${publicUrl}${PAYMENT_REQUEST_PAGE}/${encodeURIComponent(id)}`;

export type PaymentRequestRow = Row<PaymentRequestRecord>;

export interface PaymentRequestDeps {
  requests: PaymentRequestRepository;
  ledger: LedgerApi;
  identities: IdentitiesApi;
  unitOfWork: UnitOfWork;
  clock: Clock;
  ids: IdFactory;
}

/**
 * Requests for money from a customer's wallet into one of the owner's accounts. A request moves no
 * money until it is paid; then the amount goes from the payer's wallet to the receiving account in one
 * ledger transaction. Declined and expired requests move nothing.
 */
export function createPaymentRequestService(d: PaymentRequestDeps) {
  /** The payer's wallet in the currency: their oldest, the one fixtures and the control API fund. */
  const payerWallet = (payerId: string, currency: string): Account | undefined =>
    d.ledger.byOwner('user', payerId).filter((a) => a.currency === currency).at(-1);

  function move(row: Row<PaymentRequestRecord>, to: Exclude<PaymentRequestStatus, 'pending'>): void {
    let tx: string | null = null;
    if (to === 'paid') {
      const wallet = payerWallet(row.payer_id, row.currency);
      if (!wallet || wallet.balance < row.amount) throw ApiError.general('insufficient_balance', 'The payer has insufficient balance.');
      tx = d.ledger.post('payment_request', row.id, [
        { accountId: wallet.id, amount: -row.amount },
        { accountId: row.receiving_account_id, amount: row.amount },
      ]);
    }
    d.requests.setStatus(row.id, to, tx, d.clock.now());
  }

  function expireDue(): number {
    let expired = 0;
    for (;;) {
      const due = d.requests.dueExpiry(d.clock.now());
      if (!due.length) return expired;
      d.unitOfWork(() => due.forEach((row) => move(row, 'expired')));
      expired += due.length;
    }
  }

  return {
    create(app: App, body: { payer_contact_info: string; receiving_account: string; amount: number | string; message?: string; expires_in_seconds?: number }) {
      const account = d.ledger.get(body.receiving_account);
      if (!account || account.owner_type !== 'user' || account.owner_id !== app.owner_id) {
        throw ApiError.field('receiving_account', `Account "${body.receiving_account}" is not one of your accounts.`);
      }
      const amount = parseAmount(body.amount);
      const contact = body.payer_contact_info.trim();
      // Only customers of the app's own tenant: anyone else answers as unknown, so nothing leaks.
      const payer = d.identities.customerByLogin(normalizeMobile(contact), app.workspace_id);
      if (!payer) throw ApiError.field('payer_contact_info', `No customer has the email or mobile number "${contact}".`, 'unknown_target');
      if (!payerWallet(payer.id, account.currency)) {
        throw ApiError.field('payer_contact_info', `The payer has no ${developerCurrency(account.currency)} wallet.`, 'unknown_target');
      }
      const now = d.clock.now();
      const id = d.ids();
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
          expires_at: now + (body.expires_in_seconds ?? DEFAULT_REQUEST_SECONDS) * 1_000_000,
          updated_at: now,
        });
        return paymentRequestResource(d.requests.byId(id)!);
      });
    },

    /**
     * The payer pays or declines, or the request expires, now: `POST /_sandbox/payment-requests/{id}/status`
     * and the payer's page (which names the logged-in payer: anyone else's request answers as unknown).
     * A request past its expiry that the clock has not reached yet expires first, so it is never paid late.
     */
    setStatus(id: string, to: Exclude<PaymentRequestStatus, 'pending'>, by?: { payerId: string }) {
      expireDue();
      return d.unitOfWork(() => {
        const row = d.requests.byId(id);
        if (!row || (by && row.payer_id !== by.payerId)) throw ApiError.notFound();
        if (row.status !== 'pending') {
          throw ApiError.general('invalid_state_transition', `Payment request is ${row.status}; only a pending request can become ${to}.`);
        }
        move(row, to);
        return paymentRequestResource(d.requests.byId(id)!);
      });
    },

    /** The clock's own progress: every pending request past its expiry expires. */
    expireDue,

    /** One request by id, for its payer's page (after the clock's due expiries). */
    find(id: string): PaymentRequestRow | undefined {
      expireDue();
      return d.requests.byId(id);
    },

    /** The wallet a payment of this request would debit, if the payer still has one. */
    payerWallet: (row: PaymentRequestRow) => payerWallet(row.payer_id, row.currency),

    /** The newest requests of every owner, for the QA dashboard. */
    recent(limit: number) {
      expireDue();
      return d.requests.recent(limit).map(paymentRequestResource);
    },

    /** One request of the owner (anyone else's answers as unknown), after the clock's due expiries. */
    get(ownerId: string, id: string) {
      expireDue();
      const row = d.requests.forOwner(id, ownerId);
      if (!row) throw ApiError.notFound();
      return paymentRequestResource(row);
    },

    list(ownerId: string, query: { page?: number; per_page?: number }) {
      expireDue();
      const req = pageRequest(query);
      return {
        'payment-requests': d.requests.page(ownerId, req.limit, req.offset).map(paymentRequestResource),
        meta: pageMeta(req, d.requests.count(ownerId)),
      };
    },
  };
}

export type PaymentRequestService = ReturnType<typeof createPaymentRequestService>;
