import { expect } from 'vitest';
import type { TestApp } from '../testing/test-app.js';

/**
 * Test support for the developer API's Bearer (OAuth) calls (bearer-auth.test.ts,
 * bearer-auth-precedence.test.ts): an app's access token, and a request that carries it.
 */

/** A request's options with `Authorization: Bearer <token>` added to its headers. */
export const bearer = (
  token: string,
  o: { body?: unknown; headers?: Record<string, string> } = {},
) => ({
  ...o,
  headers: { authorization: `Bearer ${token}`, ...o.headers },
});

/** `tokenOf(apiKey, body?)`: a new access token of the app, made on the current test app's control API. */
export function bearerTokens(current: () => TestApp) {
  return async function tokenOf(
    apiKey: string,
    body: Record<string, unknown> = {},
  ): Promise<string> {
    const res = await current().request('POST', `/_sandbox/apps/${apiKey}/tokens`, { body });
    expect(res.status).toBe(201);
    return res.body.access_token;
  };
}
