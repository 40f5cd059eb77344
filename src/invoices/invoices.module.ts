import type { Merchant } from '../identities/identities.api.js';
import type { SandboxModule } from '../module.types.js';
import type { Services } from '../services.js';
import { createInvoicePageCache } from './invoice-pages.cache.js';
import { createInvoiceRepository, type InvoiceRepository } from './invoices.repo.js';
import { createInvoiceService, type InvoiceService } from './invoices.service.js';
import { invoiceHandlers } from './invoices.routes.js';

/** Merchant invoices: the create, retrieve and list operations, and expiry on each merchant's clock. */
export function createInvoicesModule(
  s: Services,
  identities: { merchantById: (id: string) => Merchant | undefined },
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
    dueWork: s.dueWork,
    tenants: s.tenants,
  });
  s.dueWork.register({
    name: 'invoices.expiry',
    run: () => void invoices.expireDue(),
    earliest: invoices.nextExpiry,
  });
  return {
    handlers: invoiceHandlers(invoices),
    api: invoices,
    /** The invoice rows: payments record against them (and tests seed them directly). */
    repo,
  };
}
