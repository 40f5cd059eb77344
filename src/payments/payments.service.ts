import { randomInt } from 'node:crypto';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { ApiError } from '../shared/api-error.js';
import type { IdentitiesApi, User } from '../identities/identities.api.js';
import {
  accepts,
  amountDue,
  close,
  collectorsOf,
  issueReference,
  receivePayment,
  statusAt,
  WALLET_COLLECTOR,
} from '../invoices/invoice.model.js';
import { paymentResource, type InvoiceResource } from '../invoices/invoice.view.js';
import type { Invoice } from '../invoices/invoices.api.js';
import type { InvoiceService } from '../invoices/invoices.service.js';
import type { LedgerApi } from '../ledger/ledger.api.js';
import type { Clock } from '../shared/clock.js';
import type { IdFactory } from '../shared/ids.js';

// Where the collectors are defined; re-exported for the modules that import them from here.
export { COUNTER_COLLECTORS, WALLET_COLLECTOR } from '../invoices/invoice.model.js';

export interface PaymentServiceDeps {
  /** The invoices module's api: reads, expiry, and the writes a payment makes on an invoice. */
  invoiceService: InvoiceService;
  ledger: LedgerApi;
  identities: IdentitiesApi;
  unitOfWork: UnitOfWork;
  clock: Clock;
  ids: IdFactory;
  /** Emit `invoice.updated` on expiry and cancellation (off by default, like the real service). */
  expiryEvents: () => boolean;
}

export interface PaymentOutcome {
  payment: ReturnType<typeof paymentResource>;
  invoice: InvoiceResource;
}

/**
 * The invoice lifecycle (docs/design.md#invoice-lifecycle-and-events): wallet and counter payments, partial and over-payment,
 * expiry and cancellation. Every settlement credits the merchant wallet through the ledger in the same
 * immediate transaction as the status change and the outbox events. The invoice's state changes are
 * pure functions of the model (invoice.model.ts) that the invoices module applies.
 */
export function createPaymentService(d: PaymentServiceDeps) {
  function payable(invoiceId: string): Invoice {
    return pendingOnly(d.invoiceService.load(invoiceId));
  }

  function pendingOnly(inv: Invoice): Invoice {
    const status = statusAt(inv, d.clock.now());
    if (status !== 'pending') {
      throw ApiError.general('invoice_not_payable', `Invoice is ${status} and cannot be paid.`);
    }
    // A deleted (or expired) workspace's invoice: its merchant and customers are gone, so is its money.
    // Stryker disable next-line OptionalChaining: invoices.merchant_id is a foreign key, so an invoice's merchant always exists
    if (d.identities.merchantById(inv.merchant_id)?.disabled) {
      throw ApiError.general(
        'invoice_not_payable',
        "The invoice's workspace was deleted; it cannot be paid.",
      );
    }
    return inv;
  }

  function requireCollector(inv: Invoice, collector: string): void {
    if (!accepts(inv, collector)) {
      throw ApiError.field(
        'collector',
        `"${collector}" is not a payment option of this invoice (${collectorsOf(inv).join(', ')}).`,
      );
    }
  }

  /** Record a settled payment (invoice.model.ts `receivePayment`), inside the caller's unit of work. */
  function settle(
    inv: Invoice,
    amount: bigint,
    collector: string,
    ref: string | null,
    payer: string | null,
    ledgerTx: string,
  ) {
    const payment = {
      id: d.ids(),
      amount,
      payment_collector: collector,
      reference_number: ref,
      payer_account_id: payer,
      ledger_transaction_id: ledgerTx,
    };
    const change = receivePayment(inv, payment, d.clock.now());
    const after = d.invoiceService.apply(change);
    // The first payment of an invoice is its only one: no need to read the payments back.
    const known = inv.amount_received === 0n ? [change.payment] : undefined;
    return {
      payment: paymentResource(change.payment),
      invoice: d.invoiceService.view(after, undefined, known),
    };
  }

  function merchantWallet(inv: Invoice): string {
    const m = d.identities.merchantById(inv.merchant_id);
    // Stryker disable next-line all: invoices.merchant_id is a foreign key, so an invoice's merchant always exists
    if (!m) throw new Error(`invoice ${inv.id} has no merchant`);
    return m.wallet_account_id;
  }

  /** A reference number as a person types it → as issued: without spaces (any kind) and dashes. */
  function typedReference(typed: string): string {
    return typed.replace(/[\s\-\u2010-\u2015\u2212]/g, '');
  }

  function newReference(): string {
    for (;;) {
      const ref =
        String(randomInt(1, 10)) +
        String(randomInt(0, 1e6)).padStart(6, '0') +
        String(randomInt(0, 1e6)).padStart(6, '0');
      // Stryker disable next-line ConditionalExpression: a collision among 9e12 random references is only reachable with a rigged random source
      if (!d.invoiceService.byReference(ref)) return ref;
    }
  }

  const service = {
    /** Find a customer by id, email or mobile number (or the first fixture customer). */
    /** A customer of the invoice's tenant (`workspaceId` null: the base data), by login or the first one. */
    customer(login?: string, workspaceId: string | null = null): User {
      const c = login
        ? d.identities.customerByLogin(login, workspaceId)
        : d.identities.firstCustomer(workspaceId);
      if (!c)
        throw ApiError.field(
          'customer',
          login ? `No customer "${login}".` : 'There is no customer to pay with.',
          'validation_error',
        );
      return c;
    },

    /** The customer pays from their peso wallet: debit and credit at once (docs/design.md#hosted-payment-page). */
    payFromWallet(
      invoiceId: string,
      customer: User,
      amount?: bigint,
      loaded?: Invoice,
    ): PaymentOutcome {
      return d.unitOfWork(() => {
        // `loaded`: the row the caller read in this same synchronous call (nothing ran in between).
        const inv = loaded?.id === invoiceId ? pendingOnly(loaded) : payable(invoiceId);
        requireCollector(inv, WALLET_COLLECTOR);
        const value = amount ?? amountDue(inv);
        const wallet = d.ledger
          .byOwner('user', customer.id)
          .find((a) => a.currency === inv.currency);
        if (!wallet) throw ApiError.field('customer', `Customer has no ${inv.currency} wallet.`);
        if (wallet.balance < value)
          throw ApiError.general('insufficient_balance', 'Insufficient balance.');
        const tx = d.ledger.post('invoice_payment', inv.id, [
          { accountId: wallet.id, amount: -value },
          { accountId: merchantWallet(inv), amount: value },
        ]);
        return settle(inv, value, WALLET_COLLECTOR, null, wallet.id, tx);
      });
    },

    /**
     * Issue (or return) the invoice's over-the-counter reference number; the first issue raises
     * `invoice.payment_reference_number_generated`.
     */
    issueReference(
      invoiceId: string,
      collector = 'cash_payment',
    ): { reference_number: string; invoice: InvoiceResource } {
      return d.unitOfWork(() => {
        const inv = payable(invoiceId);
        requireCollector(inv, collector);
        if (inv.current_payment_reference_number) {
          return {
            reference_number: inv.current_payment_reference_number,
            invoice: d.invoiceService.view(inv),
          };
        }
        const ref = newReference();
        const after = d.invoiceService.apply(issueReference(inv, ref, collector, d.clock.now()));
        return { reference_number: ref, invoice: d.invoiceService.view(after) };
      });
    },

    /**
     * An outlet confirms cash received against a reference number, typed as a person reads it: the
     * spaces and dashes of the grouped form on the hosted page (`5009 8221 93139`) do not count.
     */
    confirmCounterPayment(typed: string, amount?: bigint, collector?: string): PaymentOutcome {
      const reference = typedReference(typed);
      // Stryker disable next-line Regex: every issued reference is 13 digits (newReference)
      if (!/^\d{13}$/.test(reference))
        throw ApiError.field(
          'reference_number',
          'A reference number is 13 digits, as the hosted page shows it (spaces and dashes are ignored).',
        );
      return d.unitOfWork(() => {
        const found = d.invoiceService.byReference(reference);
        if (!found) throw ApiError.notFound();
        const inv = payable(found.id);
        const value = amount ?? amountDue(inv);
        const tx = d.ledger.post('counter_payment', inv.id, [
          { accountId: d.ledger.systemAccount('counterClearing', inv.currency), amount: -value },
          { accountId: merchantWallet(inv), amount: value },
        ]);
        // Stryker disable next-line StringLiteral: a reference number is always issued with its collector, so the last fallback is never reached
        return settle(
          inv,
          value,
          collector ?? inv.current_payment_collector ?? 'cash_payment',
          reference,
          null,
          tx,
        );
      });
    },

    /** Over the counter in one step: issue the reference if needed, then confirm it. */
    payOverCounter(invoiceId: string, collector: string, amount?: bigint): PaymentOutcome {
      return d.unitOfWork(() => {
        const { reference_number } = service.issueReference(invoiceId, collector);
        return service.confirmCounterPayment(reference_number, amount, collector);
      });
    },

    expire(invoiceId: string): InvoiceResource {
      return service.close(invoiceId, 'expired');
    },

    cancel(invoiceId: string): InvoiceResource {
      return service.close(invoiceId, 'canceled');
    },

    close(invoiceId: string, status: 'expired' | 'canceled'): InvoiceResource {
      return d.unitOfWork(() => {
        const inv = d.invoiceService.load(invoiceId);
        if (inv.status !== 'pending') {
          throw ApiError.general(
            'invalid_state_transition',
            `Invoice is ${inv.status}; only a pending invoice can become ${status}.`,
          );
        }
        return d.invoiceService.view(
          d.invoiceService.apply(close(inv, status, d.clock.now(), d.expiryEvents())),
        );
      });
    },
  };
  return service;
}

export type PaymentService = ReturnType<typeof createPaymentService>;
