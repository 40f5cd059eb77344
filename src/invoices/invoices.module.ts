import type { MerchantRow } from '../identities/identities.repo.js';
import type { SandboxModule } from '../module.types.js';
import type { Services } from '../services.js';
import { createInvoicePageCache } from './invoice-pages.cache.js';
import { createInvoiceRepository, type InvoiceRepository } from './invoices.repo.js';
import { createInvoiceService, type InvoiceService } from './invoices.service.js';
import { invoiceHandlers } from './invoices.routes.js';

/** Merchant invoices: the create, retrieve and list operations, and expiry on the sandbox clock. */
export function createInvoicesModule(
  s: Services,
  identities: { merchantById: (id: string) => MerchantRow | undefined },
): SandboxModule<InvoiceService> & { repo: InvoiceRepository } {
  const repo = createInvoiceRepository(s.db);
  const pages = createInvoicePageCache(repo.totalChanges);
  s.writeBatch.onRollback(pages.forget);
  const invoices = createInvoiceService({
    invoices: repo,
    outbox: s.outbox,
    unitOfWork: s.unitOfWork,
    clock: s.clock,
    ids: s.ids,
    publicUrl: () => s.config.publicUrl,
    merchantById: identities.merchantById,
    expiryEvents: () => s.config.expiryEvents,
    pages,
  });
  return {
    handlers: invoiceHandlers(invoices),
    tick: () => invoices.expireDue(),
    api: invoices,
    /** The invoice rows: payments record against them (and tests seed them directly). */
    repo,
  };
}
