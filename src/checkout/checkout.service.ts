import { ApiError } from '../shared/api-error.js';
import type { Invoice } from '../invoices/invoices.api.js';
import type { User } from '../identities/identities.api.js';
import { BalanceLimitError } from '../ledger/ledger.api.js';
import {
  accepts,
  amountDue,
  collectorsOf,
  counterCollector,
  WALLET_COLLECTOR,
} from '../invoices/invoice.model.js';
import type { ServicesWith } from '../module.types.js';
import { barcodeSvg } from './checkout.barcode.js';
import type {
  CheckoutPage,
  CheckoutStatus,
  NoticeKind,
  PageRequest,
  PayinOutlet,
  PayMethod,
  SandboxOutcome,
} from './checkout.model.js';
import type { SessionStore } from './checkout.session.js';
import { createWalletSessions, walletSubject } from './wallet-session.service.js';
import { resolveSandboxUrl } from '../shared/sandbox-url.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities' | 'ledger' | 'invoices' | 'payments'>;

export interface CheckoutDeps {
  services: ModuleServices;
  /** The outlets module's over-the-counter outlets, in fixture order. */
  payins: { payinOutlets(): PayinOutlet[] };
  sessions: SessionStore;
  /** Show the outcome chooser (off when the control API is token-protected: it pays without credentials). */
  sandboxChooser: () => boolean;
}

/** Result of an action: `null` when it went through, else the notice to show on the page. */
export type ActionResult = NoticeKind | null;

/** Failures that only mean "the invoice moved on": the page then shows its state. */
const STATE_CODES = new Set(['invoice_not_payable', 'invalid_state_transition']);

/** The hosted payment page (docs/design.md#hosted-payment-page): what it shows and what its buttons do, over the payment service. */
export function createCheckoutService(d: CheckoutDeps) {
  const s = d.services;
  const logins = createWalletSessions(s, d.sessions);

  function invoice(id: string): Invoice | undefined {
    return s.invoices.find(id);
  }

  function supportedOutlets(row: Invoice): PayinOutlet[] {
    return d.payins.payinOutlets().filter((o) => accepts(row, o.collector));
  }

  function methodsOf(row: Invoice, outlets: PayinOutlet[]): PayMethod[] {
    const methods: PayMethod[] = [];
    if (collectorsOf(row).includes(WALLET_COLLECTOR)) methods.push('wallet');
    if (outlets.length) methods.push('counter');
    return methods;
  }

  /** The invoice's tenant: its merchant's workspace, null for the base data. */
  function tenantOf(row: Invoice): string | null {
    return s.identities.merchantById(row.merchant_id)?.workspace_id ?? null;
  }

  /** The merchant's `redirect_url?invoice_id=<id>` once the invoice is paid or expired (never after a cancel). */
  function redirectTo(row: Invoice): string | null {
    return row.status === 'fully_paid' || row.status === 'expired' ? returnUrl(row) : null;
  }

  /** Only http(s) merchant URLs are followed: a `javascript:` redirect_url must never run here. */
  function returnUrl(row: Invoice): string | null {
    const raw = s.identities.merchantById(row.merchant_id)?.redirect_url;
    if (!raw) return null;
    let url: URL;
    try {
      // A path is a page of the sandbox itself (the example merchant's thank-you page), for the browser.
      url = new URL(resolveSandboxUrl(raw, s.config.publicUrl));
    } catch {
      return null;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.searchParams.append('invoice_id', row.id);
    return url.toString();
  }

  /** Signed for this invoice alone: a payment request page's session never counts here. */
  function sessionCustomer(invoiceId: string, token: string | undefined): User | null {
    return logins.customer(walletSubject.invoice(invoiceId), token);
  }

  function walletOf(customer: User, currency: string) {
    return s.ledger.byOwner('user', customer.id).find((a) => a.currency === currency);
  }

  function pick(
    methods: PayMethod[],
    asked: string | undefined,
    row: Invoice,
    loggedIn: boolean,
  ): PayMethod | null {
    if (asked && methods.includes(asked as PayMethod)) return asked as PayMethod;
    if (methods.length === 1) return methods[0]!;
    if (loggedIn && methods.includes('wallet')) return 'wallet';
    if (row.current_payment_reference_number && methods.includes('counter')) return 'counter';
    return null;
  }

  return {
    chooserEnabled: d.sandboxChooser,

    /** The page model, or null for an unknown invoice. */
    page(invoiceId: string, req: PageRequest): CheckoutPage | null {
      const row = invoice(invoiceId);
      if (!row) return null;
      const merchant = s.identities.merchantById(row.merchant_id);
      const outlets = supportedOutlets(row);
      const methods = row.status === 'pending' ? methodsOf(row, outlets) : [];
      const customer = row.status === 'pending' ? sessionCustomer(row.id, req.session) : null;
      const method = pick(methods, req.method, row, customer !== null);
      const wallet = customer ? walletOf(customer, row.currency) : undefined;
      const ref = row.current_payment_reference_number;
      const expiresIn =
        row.status === 'pending'
          ? Math.max(0, Math.floor((Number(row.expires_at) - s.clock.now()) / 1_000_000))
          : null;
      let notice = req.notice ?? null;
      if (
        !notice &&
        method === 'wallet' &&
        customer &&
        (!wallet || wallet.balance < amountDue(row))
      )
        notice = 'insufficient_balance';
      if (!notice && method === 'wallet' && req.session && !customer && row.status === 'pending')
        notice = 'session_expired';
      return {
        invoice: {
          id: row.id,
          status: row.status,
          amount: row.amount,
          amountDue: amountDue(row),
          amountReceived: row.amount_received,
          currency: row.currency,
          description: row.description,
          externalId: row.external_transaction_id,
          expiresInSeconds: expiresIn,
          referenceNumber: ref,
        },
        merchantName: merchant?.name ?? 'Merchant',
        redirectTo: redirectTo(row),
        returnUrl: row.status === 'pending' ? returnUrl(row) : null,
        methods,
        method,
        outlets,
        outlet: outlets.find((o) => o.id === req.outletId) ?? null,
        barcode: method === 'counter' && ref ? barcodeSvg(ref) : null,
        customer: customer
          ? { name: customer.name, balance: wallet?.balance ?? 0n, currency: row.currency }
          : null,
        notice,
        loginValue: req.loginValue ?? '',
        sandboxChooser: row.status === 'pending' && d.sandboxChooser(),
        nonce: req.nonce,
      };
    },

    /**
     * Where the browser goes after an action that went through: straight back to the merchant once the
     * invoice is paid or expired (as the real service does), else null (back to the page).
     */
    exitUrl(invoiceId: string): string | null {
      const row = invoice(invoiceId);
      return row ? redirectTo(row) : null;
    },

    /** What the page polls (every 2 s) to follow the invoice. */
    status(invoiceId: string): CheckoutStatus | null {
      const row = invoice(invoiceId);
      if (!row) return null;
      const v = s.invoices.view(row);
      return {
        id: v.id,
        status: v.status,
        amount: v.amount,
        amount_due: v.amount_due,
        amount_received: v.amount_received,
        expires_in_seconds: v.expires_in_seconds,
      };
    },

    /** Check a customer's credentials; a session token for this invoice, or null. */
    login(invoiceId: string, login: string, password: string): string | null {
      // Only the invoice's tenant logs in here: a base-data customer on a workspace invoice (or the
      // reverse) fails exactly as an unknown login does.
      const row = invoice(invoiceId);
      return logins.login(
        walletSubject.invoice(invoiceId),
        row ? tenantOf(row) : undefined,
        login,
        password,
      );
    },

    /** Log out: the session ends on the server. */
    logout: (session: string | undefined) => logins.logout(session),

    /** Pay the amount due from the logged-in customer's wallet: debit and credit at once. */
    confirm(invoiceId: string, session: string | undefined): ActionResult {
      const customer = sessionCustomer(invoiceId, session);
      if (!customer) return 'session_expired';
      return settle(() => s.payments.payFromWallet(invoiceId, customer));
    },

    /** Issue (or re-show) the reference number for the chosen outlet. */
    chooseOutlet(invoiceId: string, outletId: string): ActionResult {
      const row = invoice(invoiceId);
      const outlet = row ? supportedOutlets(row).find((o) => o.id === outletId) : undefined;
      if (!row || !outlet) return 'unsupported_outlet';
      const collector = collectorsOf(row).includes(outlet.collector)
        ? outlet.collector
        : 'cash_payment';
      return settle(() => s.payments.issueReference(invoiceId, collector));
    },

    /** The sandbox outcome chooser: pay in full, pay half of what is due, or expire now. */
    sandboxOutcome(invoiceId: string, outcome: SandboxOutcome): ActionResult {
      if (outcome === 'expire') return settle(() => s.payments.expire(invoiceId));
      const row = invoice(invoiceId);
      if (!row) return null;
      const half = amountDue(row) / 2n;
      const amount = outcome === 'part' && half > 0n ? half : undefined;
      // Over the counter first: it needs no customer balance, so the chooser cannot run dry.
      const counter = counterCollector(row);
      if (!counter && !collectorsOf(row).includes(WALLET_COLLECTOR)) return 'sandbox_unavailable';
      const result = counter
        ? settle(() => s.payments.payOverCounter(invoiceId, counter, amount))
        : settle(() =>
            s.payments.payFromWallet(
              invoiceId,
              s.payments.customer(undefined, tenantOf(row)),
              amount,
            ),
          );
      // The chooser's refusals are shown in its own section.
      if (result === 'receiver_full') return 'sandbox_receiver_full';
      return result === 'insufficient_balance' ? 'sandbox_unavailable' : result;
    },
  };

  function settle(work: () => unknown): ActionResult {
    try {
      work();
      return null;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.code === 'insufficient_balance') return 'insufficient_balance';
      if (err instanceof BalanceLimitError) return 'receiver_full';
      if (STATE_CODES.has(err.code)) return null;
      if (err.code === 'validation_error' && 'customer' in err.errors) return 'sandbox_unavailable';
      throw err;
    }
  }
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
