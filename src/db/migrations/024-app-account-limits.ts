/**
 * What the real service decides by the developer account behind an application (docs/design.md#identities):
 * whether it is a business account (HMAC access to the sell-order API needs one; OAuth does not), and its
 * daily cash-in limit for buy orders, in units of 1e-8 PHP (NULL: no limit). Existing apps are business
 * accounts without a limit (the real limits depend on the account's level, which nothing publishes).
 */
export const sql = /* sql */ `
ALTER TABLE apps ADD COLUMN business_account INTEGER NOT NULL DEFAULT 1;
ALTER TABLE apps ADD COLUMN daily_buy_limit INTEGER;
`;
