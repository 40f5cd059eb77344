/**
 * Keep the collector an over-the-counter reference was issued for (7-Eleven, Bayad, …), so the
 * payment an outlet confirms records the collector the customer chose, not a generic `cash_payment`.
 */
export const sql = /* sql */ `
ALTER TABLE invoices ADD COLUMN current_payment_collector TEXT;
`;
