import { ApiError } from '../shared/api-error.js';
import { ok, type Handlers } from '../http/operation.js';
import type { ServicesWith } from '../module.types.js';
import { amountInput } from './control-input.js';
import type { InvoiceControlService } from './invoice-control.service.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'invoices' | 'payments'>;

const optionalAmount = (value: unknown) =>
  value === undefined ? undefined : amountInput(value, 'amount');

/** getSandboxInvoice, payInvoice, confirmCounterPayment, expireInvoice, cancelInvoice, triggerEvent (docs/design.md#control-api). */
export function invoiceControlHandlers(
  s: ModuleServices,
  control: InvoiceControlService,
): Handlers {
  return {
    // Any merchant's invoice, as the API shows it to its merchant: QA reads it without that merchant's token.
    getSandboxInvoice: ({ params }) => {
      return ok({ invoice: s.invoices.view(s.invoices.load(params.invoice_id)) });
    },
    payInvoice: ({ params, body }) =>
      ok(
        control.pay(params.invoice_id, body.collector, optionalAmount(body.amount), body.customer),
        201,
      ),
    confirmCounterPayment: ({ body }) =>
      ok(s.payments.confirmCounterPayment(body.reference_number, optionalAmount(body.amount)), 201),
    expireInvoice: ({ params }) => ok({ invoice: s.payments.expire(params.invoice_id) }),
    cancelInvoice: ({ params }) => ok({ invoice: s.payments.cancel(params.invoice_id) }),
    triggerEvent: ({ body }) => ok(control.trigger(body.event, body.invoice_id), 201),
  };
}
