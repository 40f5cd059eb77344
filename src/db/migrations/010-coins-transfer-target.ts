/**
 * A sell order through `coins_transfer` pays out to a wallet: the account its `target_address` named
 * when the order was created, credited when the order completes. NULL for every other outlet (their
 * payout leaves the sandbox) and for rows from before.
 */
export const sql = /* sql */ `
ALTER TABLE sell_orders ADD COLUMN target_account_id TEXT REFERENCES accounts(id);
`;
