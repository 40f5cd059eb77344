import { ApiError } from '../shared/api-error.js';
import type { ServicesWith } from '../module.types.js';
import type { PaymentRequestService } from '../wallet/payment-requests.service.js';
import type { CheckoutCustomer } from './checkout.model.js';
import { NOTICES, RECEIVER_FULL } from './checkout.model.js';
import { BalanceLimitError } from '../ledger/ledger.api.js';
import type { SessionStore } from './checkout.session.js';
import { createWalletSessions, walletSubject } from './wallet-session.service.js';

/** What the page uses of the wallet module's payment requests: it pays through the control API's own path. */
export type RequestPageApi = Pick<PaymentRequestService, 'find' | 'payerWallet' | 'setStatus'>;

export type RequestStatus = 'pending' | 'paid' | 'declined' | 'expired' | 'canceled';

/** Messages the request page can show after an action; every wording in one place. */
export const REQUEST_NOTICES = {
  login_failed: NOTICES.login_failed,
  session_expired: 'Your wallet session has ended. Log in again to pay or decline.',
  insufficient_balance:
    'Insufficient balance: your wallet does not hold enough to pay this request.',
  wrong_payer:
    'This request was sent to another wallet: only the customer it is addressed to can pay or decline it. Nothing was changed. Log in with that account instead.',
  receiver_full: RECEIVER_FULL("The requester's"),
} as const;

export type RequestNotice = keyof typeof REQUEST_NOTICES;

/** Everything the payer's page shows; the view renders it and nothing else. */
export interface RequestPage {
  id: string;
  status: RequestStatus;
  amount: bigint;
  currency: string;
  message: string;
  /** Who asks: the name of the account owner the money goes to. */
  requesterName: string;
  /** The email or mobile number the request was sent to. */
  payerContact: string;
  /** ISO 8601 UTC (whole seconds): when a pending request expires, or when an expired one did. */
  expiresAt: string;
  /** The logged-in wallet while the request is pending. */
  customer: CheckoutCustomer | null;
  /** The logged-in wallet is the one the request is addressed to. */
  isPayer: boolean;
  notice: RequestNotice | null;
  loginValue: string;
  nonce: string;
}

export interface RequestPageRequest {
  session?: string;
  notice?: RequestNotice | null;
  loginValue?: string;
  nonce: string;
}

/**
 * The payer's side of a payment request (a sandbox addition; the real payer answers in the wallet app):
 * the request, the same wallet login as the invoice page, and Pay / Decline for the payer alone.
 */
export function createRequestPageService(d: {
  services: ServicesWith<'identities'>;
  requests: RequestPageApi;
  sessions: SessionStore;
}) {
  const s = d.services;
  const logins = createWalletSessions(s, d.sessions);
  // Signed for this request alone: an invoice page's session never counts here.
  const sessionCustomer = (requestId: string, token: string | undefined) =>
    logins.customer(walletSubject.paymentRequest(requestId), token);

  return {
    exists: (id: string) => d.requests.find(id) !== undefined,

    /** The page model, or null for an unknown request. */
    page(id: string, req: RequestPageRequest): RequestPage | null {
      const row = d.requests.find(id);
      if (!row) return null;
      const pending = row.status === 'pending';
      const user = pending ? sessionCustomer(id, req.session) : null;
      const isPayer = user !== null && user.id === row.payer_id;
      const wallet = isPayer ? d.requests.payerWallet(row) : undefined;
      let notice = req.notice ?? null;
      if (!notice && user && !isPayer) notice = 'wrong_payer';
      if (!notice && isPayer && (!wallet || wallet.balance < row.amount))
        notice = 'insufficient_balance';
      if (!notice && pending && req.session && !user) notice = 'session_expired';
      return {
        id: row.id,
        status: row.status,
        amount: row.amount,
        currency: row.currency,
        message: row.message,
        requesterName: s.identities.userById(row.owner_id)?.name ?? 'A wallet user',
        payerContact: row.payer_contact_info,
        expiresAt: new Date(Math.floor(Number(row.expires_at) / 1_000_000) * 1000)
          .toISOString()
          .replace('.000Z', 'Z'),
        customer: user
          ? { name: user.name, balance: wallet?.balance ?? 0n, currency: row.currency }
          : null,
        isPayer,
        notice,
        loginValue: req.loginValue ?? '',
        nonce: req.nonce,
      };
    },

    /** Check a customer's credentials in the payer's tenant; a session token for this request, or null. */
    login(id: string, login: string, password: string): string | null {
      const row = d.requests.find(id);
      // The payer's own tenant: a customer of another workspace fails exactly as an unknown login does.
      const tenant = row ? (s.identities.userById(row.payer_id)?.workspace_id ?? null) : undefined;
      return logins.login(walletSubject.paymentRequest(id), tenant, login, password);
    },

    /** Log out: the session ends on the server. */
    logout: (session: string | undefined) => logins.logout(session),

    /**
     * Pay or decline as the logged-in payer, through the same service call as the control API. A request
     * that already moved on (a second click, the clock) changes nothing: the page then shows its state.
     */
    respond(
      id: string,
      session: string | undefined,
      to: 'paid' | 'declined',
    ): RequestNotice | null {
      const row = d.requests.find(id);
      if (!row || row.status !== 'pending') return null;
      const customer = sessionCustomer(id, session);
      if (!customer) return 'session_expired';
      if (row.payer_id !== customer.id) return 'wrong_payer';
      try {
        d.requests.setStatus(id, to, { payerId: customer.id });
        return null;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        if (err.code === 'insufficient_balance') return 'insufficient_balance';
        if (err instanceof BalanceLimitError) return 'receiver_full';
        if (err.code === 'invalid_state_transition') return null;
        throw err;
      }
    },
  };
}

export type RequestPageService = ReturnType<typeof createRequestPageService>;
