/**
 * `total_received` of an account (the real crypto-accounts resource carries it): everything ever
 * credited to it. Cached on the account like `balance`, moved in the same statement as each entry, and
 * filled here from the entries already written.
 */
export const sql = /* sql */ `
ALTER TABLE accounts ADD COLUMN total_received INTEGER NOT NULL DEFAULT 0;
UPDATE accounts SET total_received = (
  SELECT COALESCE(SUM(e.amount), 0) FROM ledger_entries e WHERE e.account_id = accounts.id AND e.amount > 0
);
`;
