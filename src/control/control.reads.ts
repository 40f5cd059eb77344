import type { Db } from '../db/open.js';
import type { IdentitiesApi } from '../identities/identities.api.js';
import type { InvoiceService } from '../invoices/invoices.service.js';

/** What the control API reads beyond its own services: through the owning modules' apis. */
export interface ControlReads {
  emailTaken(email: string): boolean;
  mobileTaken(mobile: string): boolean;
  /** Rows changed on this connection since it opened (the dashboard's live poll). */
  writes(): number;
  recentInvoiceIds(limit: number): string[];
}

export function createControlReads(
  db: Db,
  identities: IdentitiesApi,
  invoices: Pick<InvoiceService, 'recentIds'>,
): ControlReads {
  // One number that moves with every write (invoices, payments, deliveries, identities), read in O(1):
  // a property of the connection, not of any module's table.
  const totalChanges = db.prepare('SELECT total_changes() AS n').pluck();
  return {
    emailTaken: identities.emailTaken,
    mobileTaken: identities.mobileTaken,
    writes: () => totalChanges.get() as number,
    recentInvoiceIds: invoices.recentIds,
  };
}
