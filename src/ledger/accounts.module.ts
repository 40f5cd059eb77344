import type { SandboxModule } from '../module.types.js';
import { accountHandlers } from './accounts.routes.js';
import { createAccountService, type AccountServiceDeps } from './accounts.service.js';
import type { LedgerApi } from './ledger.api.js';

export type AccountService = ReturnType<typeof createAccountService>;

/**
 * Wallet accounts of the developer API (`GET /v3/crypto-accounts/`) and their monthly statements.
 * `pages`: keep rendered pages while `version` stays put (see AccountServiceDeps), dropped on rollback.
 */
export function createAccountsModule(
  ledger: LedgerApi,
  pages?: { version: NonNullable<AccountServiceDeps['version']>; onRollback(l: () => void): void },
): SandboxModule<AccountService> {
  const accounts = createAccountService({ ledger, version: pages?.version });
  pages?.onRollback(accounts.forget);
  return { handlers: accountHandlers(accounts, ledger), api: accounts };
}
