import type { SandboxModule } from '../module.types.js';
import { accountHandlers } from './accounts.routes.js';
import { createAccountService } from './accounts.service.js';
import type { LedgerApi } from './ledger.api.js';

export type AccountService = ReturnType<typeof createAccountService>;

/** Wallet accounts of the developer API (`GET /v3/crypto-accounts/`) and their monthly statements. */
export function createAccountsModule(ledger: LedgerApi): SandboxModule<AccountService> {
  const accounts = createAccountService({ ledger });
  return { handlers: accountHandlers(accounts, ledger), api: accounts };
}
