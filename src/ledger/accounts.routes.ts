import { ok, type Handlers } from '../http/operation.js';
import type { createAccountService } from './accounts.service.js';
import { balanceStatement } from './balance-statement.js';
import type { LedgerApi } from './ledger.api.js';

/** listCryptoAccounts: the signing application's owner's wallets; getBalanceStatement: a month of one of them as CSV. */
export function accountHandlers(
  accounts: ReturnType<typeof createAccountService>,
  ledger: LedgerApi,
): Handlers {
  return {
    listCryptoAccounts: ({ app, query }) => ok(accounts.listForUser(app.owner_id, query)),
    getBalanceStatement: ({ app, query }) =>
      new Response(balanceStatement(ledger, app.owner_id, query), {
        status: 200,
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="balance-statement-${query.year}-${String(query.month).padStart(2, '0')}.csv"`,
        },
      }),
  };
}
