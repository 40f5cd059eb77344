import type { IdentitiesApi } from '../identities/identities.api.js';
import type { InvoiceService } from '../invoices/invoices.service.js';
import type { LedgerApi } from '../ledger/ledger.api.js';
import type { SandboxModule } from '../module.types.js';
import type { Services } from '../services.js';
import { createPaymentService, type PaymentService } from './payments.service.js';

export interface PaymentsModuleDeps {
  /** The invoices module's api (reads, expiry and the writes a payment makes on an invoice). */
  invoices: InvoiceService;
  ledger: LedgerApi;
  identities: IdentitiesApi;
}

/** Payments of invoices: wallet and counter payments, expiry and cancellation, settled through the ledger. */
export function createPaymentsModule(
  s: Services,
  d: PaymentsModuleDeps,
): SandboxModule<PaymentService> {
  const payments = createPaymentService({
    invoiceService: d.invoices,
    ledger: d.ledger,
    identities: d.identities,
    unitOfWork: s.unitOfWork,
    clock: s.clock,
    ids: s.ids,
    expiryEvents: () => s.config.expiryEvents,
  });
  return { api: payments };
}
