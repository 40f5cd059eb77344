import type { EventName } from '../events/outbox.repo.js';
import { ApiError } from '../shared/api-error.js';
import type { User } from '../identities/identities.api.js';
import type { InvoiceResource } from '../invoices/invoice.view.js';
import type { Invoice } from '../invoices/invoices.api.js';
import {
  amountDue,
  COUNTER_COLLECTORS,
  collectorsOf,
  WALLET_COLLECTOR,
} from '../invoices/invoice.model.js';
import type { PaymentOutcome } from '../payments/payments.service.js';
import type { ServicesWith } from '../module.types.js';
import { formatMoney, UNITS_PER_PESO } from '../shared/money.js';
import type { ControlReads } from './control.reads.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities' | 'ledger' | 'invoices' | 'payments'>;

/** Amount of the invoice `POST /_sandbox/trigger` creates when it is given no invoice. */
const TRIGGER_INVOICE_AMOUNT = 100n * UNITS_PER_PESO;

export interface TriggerOutcome {
  event: EventName;
  invoice: InvoiceResource;
  payment?: PaymentOutcome['payment'];
}

/** QA moves an invoice through its lifecycle (docs/design.md#control-api): pay, trigger events. */
export function createInvoiceControlService(s: ModuleServices, repo: ControlReads) {
  /**
   * Who pays when the caller names nobody: the workspace's own customer for a workspace invoice (so
   * parallel CI jobs never drain one shared wallet), otherwise the first fixture customer.
   */
  function payer(inv: Invoice, login?: string): User {
    // A named customer is looked up in the invoice's tenant only: workspaces never pay each other.
    const workspaceId = s.identities.merchantById(inv.merchant_id)?.workspace_id ?? null;
    return s.payments.customer(login, workspaceId);
  }

  function existing(invoiceId: string): Invoice {
    return s.invoices.load(invoiceId);
  }

  function pending(invoiceId: string): Invoice {
    const inv = existing(invoiceId);
    if (inv.status !== 'pending')
      throw ApiError.general('invoice_not_payable', `Invoice is ${inv.status} and cannot be paid.`);
    return inv;
  }

  /**
   * Pay `amount` the way that is sure to work: from the payer's wallet when the invoice takes it and
   * the balance covers it, else over the counter, else the wallet again so the caller hears why not.
   */
  function autoPay(inv: Invoice, amount: bigint): PaymentOutcome {
    const collectors = collectorsOf(inv);
    const customer = payer(inv);
    if (collectors.includes(WALLET_COLLECTOR)) {
      const wallet = s.ledger.byOwner('user', customer.id).find((a) => a.currency === inv.currency);
      if (wallet && wallet.balance >= amount)
        return s.payments.payFromWallet(inv.id, customer, amount);
    }
    const counter = collectors.find((c) => COUNTER_COLLECTORS.includes(c));
    if (counter) return s.payments.payOverCounter(inv.id, counter, amount);
    return s.payments.payFromWallet(inv.id, customer, amount);
  }

  function createTriggerInvoice(): InvoiceResource {
    const merchant = s.identities.firstMerchant();
    if (!merchant)
      throw ApiError.general('not_found', 'There is no fixture merchant to create an invoice for.');
    const max = BigInt(merchant.max_invoice_amount);
    return s.invoices.create(merchant, {
      amount: formatMoney(max < TRIGGER_INVOICE_AMOUNT ? max : TRIGGER_INVOICE_AMOUNT),
      currency: 'PHP',
      external_transaction_id: `trigger-${s.ids()}`,
      description: 'Created by POST /_sandbox/trigger',
    });
  }

  return {
    /** payInvoice: `coins_peso_wallet`, `cash_payment` or an outlet collector; default amount = amount due. */
    pay(invoiceId: string, collector: string, amount?: bigint, customer?: string): PaymentOutcome {
      const inv = existing(invoiceId);
      if (collector === WALLET_COLLECTOR)
        return s.payments.payFromWallet(inv.id, payer(inv, customer), amount, inv);
      if (COUNTER_COLLECTORS.includes(collector))
        return s.payments.payOverCounter(inv.id, collector, amount);
      throw ApiError.field(
        'collector',
        `"${collector}" is not a payment collector; use ${WALLET_COLLECTOR} or an over-the-counter one (${COUNTER_COLLECTORS.join(', ')}).`,
      );
    },

    /**
     * triggerEvent: make the event happen for real, in one transaction with the invoice it creates
     * when none is given (a refused trigger leaves nothing behind).
     */
    trigger(event: EventName, invoiceId?: string): TriggerOutcome {
      if (event === 'invoice.created') {
        if (invoiceId !== undefined)
          throw ApiError.field(
            'invoice_id',
            'invoice.created makes a new invoice: leave out invoice_id.',
          );
        return { event, invoice: createTriggerInvoice() };
      }
      return s.unitOfWork(() => {
        const inv = pending(invoiceId ?? createTriggerInvoice().id);
        switch (event) {
          case 'invoice.fully_paid': {
            const { payment, invoice } = autoPay(inv, amountDue(inv));
            return { event, invoice, payment };
          }
          case 'invoice.updated': {
            if (amountDue(inv) < 2n) {
              throw ApiError.general(
                'invalid_state_transition',
                `Only ${formatMoney(amountDue(inv))} ${inv.currency} is due: a partial payment would leave nothing due. Trigger invoice.fully_paid instead.`,
              );
            }
            const { payment, invoice } = autoPay(inv, amountDue(inv) / 2n);
            return { event, invoice, payment };
          }
          case 'invoice.payment_reference_number_generated': {
            if (inv.current_payment_reference_number) {
              throw ApiError.general(
                'invalid_state_transition',
                `Reference number ${inv.current_payment_reference_number} was already issued for this invoice; it is issued once.`,
              );
            }
            const counter = collectorsOf(inv).find((c) => COUNTER_COLLECTORS.includes(c));
            if (!counter)
              throw ApiError.general(
                'invalid_state_transition',
                'This invoice does not accept over-the-counter payment.',
              );
            return { event, invoice: s.payments.issueReference(inv.id, counter).invoice };
          }
        }
      });
    },
  };
}

export type InvoiceControlService = ReturnType<typeof createInvoiceControlService>;
