import type { TestApp } from '../testing/test-app.js';

/** Test support for the HMAC tests (hmac-auth.test.ts, hmac-auth-nonces.test.ts). */

/** The signed read the tests make: the app's wallets. */
export const PATH = '/v3/crypto-accounts/';

/** `lastNonce(apiKey)`: the last nonce the app accepted, as the current test app stores it. */
export function storedNonces(current: () => TestApp) {
  return (key: string) =>
    (
      current().db.prepare('SELECT last_nonce FROM apps WHERE api_key = ?').get(key) as {
        last_nonce: string | null;
      }
    ).last_nonce;
}
