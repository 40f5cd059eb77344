import type { SandboxModule } from '../module.types.js';
import type { Services } from '../services.js';
import type { IdentitiesApi } from './identities.api.js';
import { createIdentityRepository } from './identities.repo.js';

/**
 * Merchants, developers, their apps and tokens. Its writes that ride on signed requests (the nonce
 * advance) go through the shared write batch, and its token cache is dropped when that batch rolls back.
 * Its clock work records the expiry of OAuth2 tokens as it is reached.
 */
export function createIdentitiesModule(s: Services): SandboxModule<IdentitiesApi> {
  const identities = createIdentityRepository(s.db, s.writeBatch.statement);
  s.writeBatch.onRollback(identities.forgetCached);
  const tokens = identities.appTokens;
  return {
    // Record each OAuth2 token's expiry when it is reached, so that a clock moved back revives none.
    tick: () => {
      const now = s.clock.now();
      if (tokens.anyDue(now)) s.unitOfWork(() => tokens.markExpired(now));
    },
    api: identities,
  };
}
