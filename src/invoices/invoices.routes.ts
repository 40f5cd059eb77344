import { ok, type Handler, type Handlers } from '../http/operation.js';
import type { Merchant } from '../identities/identities.api.js';
import type { InvoiceService } from './invoices.service.js';

/** createInvoiceV1/V3, getInvoiceV1/V3, listInvoices (docs/design.md#public-api). */
export function invoiceHandlers(invoices: InvoiceService): Handlers {
  const create = (merchant: Merchant, body: Parameters<InvoiceService['create']>[1]) =>
    ok({ invoice: invoices.create(merchant, body) }, 201);
  const get: Handler<'getInvoiceV3'> = ({ merchant, params }) =>
    ok({ invoice: invoices.get(merchant, params.invoice_id) });
  return {
    createInvoiceV1: ({ merchant, body }) => create(merchant, body),
    createInvoiceV3: ({ merchant, body }) => create(merchant, body),
    // Without credentials the v1 read answers by id alone, as the real service does for its merchant plugin.
    getInvoiceV1: ({ merchant, params }) =>
      ok({
        invoice: merchant
          ? invoices.get(merchant, params.invoice_id)
          : invoices.getPublic(params.invoice_id),
      }),
    getInvoiceV3: get,
    listInvoices: ({ merchant, query }) => ok(invoices.list(merchant, query)),
  };
}
