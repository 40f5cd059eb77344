import type { SandboxModule } from '../module.types.js';
import type { Services } from '../services.js';
import type { AppTokensApi, IdentitiesApi } from './identities.api.js';
import { createIdentityRepository } from './identities.repo.js';

/**
 * Merchants, developers, their apps and tokens. Its writes that ride on signed requests (the nonce
 * advance) go through the shared write batch, and its token cache is dropped when that batch rolls back.
 * Its clock work records the expiry of OAuth2 tokens as it is reached: due work of the registry
 * (src/clock/due-work.ts), each token on its app's workspace clock.
 */
export function createIdentitiesModule(s: Services): SandboxModule<IdentitiesApi> {
  const repo = createIdentityRepository(s.db, s.writeBatch.statement);
  s.writeBatch.onRollback(repo.forgetCached);
  const tokens = repo.appTokens;
  const appTokens: AppTokensApi = {
    ...tokens,
    // A token is issued on its app's clock, the current tenant's (the control call entered it): its
    // expiry lowers the guard of the due work.
    insert(row) {
      tokens.insert(row);
      s.dueWork.expect(row.expires_at);
    },
  };
  // Record each OAuth2 token's expiry when it is reached, so that a clock moved back revives none.
  // The registry runs this on no tenant's clock: `now` is the sandbox time, and the SQL compares each
  // token with its app's workspace time.
  s.dueWork.register({
    name: 'identities.token-expiry',
    run() {
      const now = s.clock.now();
      if (tokens.anyDue(now)) s.unitOfWork(() => tokens.markExpired(now));
    },
    earliest: tokens.nextExpiry,
  });
  return { api: { ...repo, appTokens } };
}
