/**
 * Every ledger transaction holds one currency (docs/design.md#money-bounds). Before this, funding a BTC
 * wallet (the fixtures, the control API's fund call, a released BTC buy order) debited the peso funding
 * account and credited BTC with the same units, so a fresh sandbox summed to BTC +1 / PHP -1.
 *
 * The repair: each entry of a system account that sits in a transaction of another currency (the
 * currency of the transaction's other accounts) moves to that purpose's account in that currency,
 * `<system id>-<currency>` (made here when missing, as the ledger makes them on first use); the cached
 * balances of the system accounts are then summed again from their entries. System accounts no longer
 * keep `total_received` (it only grows, and nothing shows it): it becomes 0. Entries stay append-only:
 * the guard is lifted for the one UPDATE and put back.
 */
export const sql = /* sql */ `
CREATE TEMP TABLE ledger_currency_moves AS
  SELECT e.id AS entry_id, s.name AS name, w.currency AS currency, s.id || '-' || lower(w.currency) AS to_id
  FROM ledger_entries e
  JOIN accounts s ON s.id = e.account_id AND s.owner_type = 'system'
  JOIN (
    SELECT e2.transaction_id AS transaction_id, MIN(a2.currency) AS currency
    FROM ledger_entries e2 JOIN accounts a2 ON a2.id = e2.account_id
    WHERE a2.owner_type <> 'system' GROUP BY e2.transaction_id
  ) w ON w.transaction_id = e.transaction_id
  WHERE w.currency <> s.currency;

INSERT OR IGNORE INTO accounts (id, owner_type, owner_id, name, currency, balance, pending_balance, default_address, allow_negative, created_at)
  SELECT to_id, 'system', 'sandbox', MIN(name) || ' (' || currency || ')', currency, 0, 0, to_id, 1,
         (SELECT COALESCE(MIN(created_at), 0) FROM accounts)
  FROM ledger_currency_moves GROUP BY to_id, currency;

DROP TRIGGER ledger_entries_append_only_update;
UPDATE ledger_entries SET account_id = (SELECT to_id FROM ledger_currency_moves m WHERE m.entry_id = ledger_entries.id)
  WHERE id IN (SELECT entry_id FROM ledger_currency_moves);
CREATE TRIGGER ledger_entries_append_only_update BEFORE UPDATE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END;

-- Summed again only where the sum fits int64 (SUM would throw past it): an account already past the
-- bounds keeps its figure, and the invariant check reports it.
UPDATE accounts SET balance = (SELECT COALESCE(SUM(e.amount), 0) FROM ledger_entries e WHERE e.account_id = accounts.id)
  WHERE owner_type = 'system'
    AND (SELECT abs(TOTAL(e.amount)) FROM ledger_entries e WHERE e.account_id = accounts.id) < 9.0e18;
UPDATE accounts SET total_received = 0 WHERE owner_type = 'system';

DROP TABLE ledger_currency_moves;
`;
