import type { SandboxModule } from '../module.types.js';
import type { Services } from '../services.js';
import type { InvoiceService } from './invoices.service.js';
import { invoiceHandlers } from './invoices.routes.js';

/** Merchant invoices: the create, retrieve and list operations, and expiry on the sandbox clock. */
export function createInvoicesModule(s: Services): SandboxModule<InvoiceService> {
  return { handlers: invoiceHandlers(s.invoices), tick: () => s.invoices.expireDue(), api: s.invoices };
}
