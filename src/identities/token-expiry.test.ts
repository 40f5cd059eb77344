import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { developerError } from '../testing/error-code.js';
import { itemAt } from '../shared/defined.js';

// An OAuth2 token's expiry is due work of the registry (src/clock/due-work.ts): real time is under the
// test's hand and no background tick runs, so only the registry records it.
let real = 1_800_000_000_000;
let t: TestApp;
beforeEach(() => {
  real = 1_800_000_000_000;
  t = createTestApp({ realNowMs: () => real });
});
afterEach(() => t.close());

const INVALID = developerError('invalid_token', { non_field_errors: ['Invalid token.'] });
const issue = async (apiKey: string, seconds: number) => {
  const res = await t.request('POST', `/_sandbox/apps/${apiKey}/tokens`, {
    body: { expires_in_seconds: seconds },
  });
  expect(res.status).toBe(201);
  return res.body.access_token as string;
};
const accounts = (token: string) =>
  t.request('GET', '/v3/crypto-accounts/', { headers: { authorization: `Bearer ${token}` } });
const row = (token: string) =>
  t.db
    .prepare('SELECT expires_at, expired_at FROM app_access_tokens WHERE access_token = ?')
    .get(token) as { expires_at: number; expired_at: number | null };
const dueWork = () => t.services.dueWork;
const workspace = async () =>
  (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace as {
    id: string;
    app: { api_key: string };
  };

describe('OAuth2 token expiry as due work', () => {
  it('a new token lowers the guard to its expiry; a request once real time reaches it records the expiry', async () => {
    const apiKey = itemAt(t.fixtures.developers, 0).app.api_key;
    const tok = await issue(apiKey, 60);
    const { expires_at } = row(tok);
    expect(dueWork().nextDueAt()).toBe(expires_at);
    real += 59_000;
    expect((await accounts(tok)).status).toBe(200);
    expect(row(tok).expired_at).toBeNull();
    real += 1_001; // the sandbox clock is strictly increasing: a few µs ahead of real time
    // Any request runs the due work first: this one is refused, and the expiry is written.
    const res = await accounts(tok);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
    expect(row(tok).expired_at).toBe(expires_at);
    expect(dueWork().nextDueAt()).toBeGreaterThan(expires_at);
  });

  it('a token of an advanced workspace is expected at its expiry moved back by the offset', async () => {
    const ws = await workspace();
    await t.request('POST', `/_sandbox/workspaces/${ws.id}/clock/advance`, {
      body: { seconds: 3600 },
    });
    const tok = await issue(ws.app.api_key, 60);
    expect(dueWork().nextDueAt()).toBe(row(tok).expires_at - 3_600_000_000);
    real += 60_001;
    await t.request('GET', '/_sandbox/clock');
    expect(row(tok).expired_at).toBe(row(tok).expires_at);
  });

  it('answers 401 with the same body right after a clock advance past its expiry, on the sandbox clock and on a workspace clock', async () => {
    const ws = await workspace();
    const base = await issue(itemAt(t.fixtures.developers, 0).app.api_key, 60);
    const own = await issue(ws.app.api_key, 60);
    const other = await workspace();
    const kept = await issue(other.app.api_key, 60);
    await t.request('POST', `/_sandbox/workspaces/${ws.id}/clock/advance`, {
      body: { seconds: 61 },
    });
    expect(row(own).expired_at).toBe(row(own).expires_at);
    expect(row(base).expired_at).toBeNull();
    const refused = await accounts(own);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(INVALID);
    expect((await accounts(base)).status).toBe(200);
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 61 } });
    expect(row(base).expired_at).toBe(row(base).expires_at);
    expect(row(kept).expired_at).toBe(row(kept).expires_at);
    for (const tok of [base, kept]) {
      const res = await accounts(tok);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID);
    }
  });
});
