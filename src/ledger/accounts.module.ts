import type { SandboxModule } from '../module.types.js';
import type { Services } from '../services.js';
import { accountHandlers } from './accounts.routes.js';
import type { createAccountService } from './accounts.service.js';

/** Wallet accounts of the developer API (`GET /v3/crypto-accounts/`). */
export function createAccountsModule(s: Services): SandboxModule<ReturnType<typeof createAccountService>> {
  return { handlers: accountHandlers(s.accounts), api: s.accounts };
}
