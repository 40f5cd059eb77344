import type { Db } from '../db/open.js';

/** The few reads the control API needs beyond the identity and invoice repositories. */
export function createControlRepository(db: Db) {
  const emailTaken = db.prepare('SELECT 1 FROM users WHERE email = ? COLLATE NOCASE');
  const mobileTaken = db.prepare('SELECT 1 FROM users WHERE mobile_number = ?');
  // Across merchants, for the dashboard: newest first, like every list.
  const recentInvoices = db.prepare('SELECT id FROM invoices ORDER BY created_at DESC, id DESC LIMIT ?');

  return {
    emailTaken: (email: string) => emailTaken.get(email) !== undefined,
    mobileTaken: (mobile: string) => mobileTaken.get(mobile) !== undefined,
    recentInvoiceIds: (limit: number) => (recentInvoices.all(limit) as Array<{ id: string }>).map((r) => r.id),
  };
}

export type ControlRepository = ReturnType<typeof createControlRepository>;
