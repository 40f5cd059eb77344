import { ok, type Handlers } from '../http/operation.js';
import type { createAccountService } from './accounts.service.js';

/** listCryptoAccounts: the signing application's owner's wallets. */
export function accountHandlers(accounts: ReturnType<typeof createAccountService>): Handlers {
  return {
    listCryptoAccounts: ({ app, query }) => ok(accounts.listForUser(app.owner_id, query)),
  };
}
