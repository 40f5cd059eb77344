import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { banner } from '../cli/start.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { developerError } from '../testing/error-code.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const dev = () => t.fixtures.developers[0]!;
const issue = (body?: unknown, key = dev().app.api_key) =>
  t.request('POST', `/_sandbox/apps/${key}/tokens`, { body });
const list = (key = dev().app.api_key) => t.request('GET', `/_sandbox/apps/${key}/tokens`);
const accounts = (token: string) =>
  t.request('GET', '/v3/crypto-accounts/', { headers: { authorization: `Bearer ${token}` } });
// A developer operation refusing a token: the real developer body, no `error_codes`.
const INVALID = developerError('invalid_token', { non_field_errors: ['Invalid token.'] });

describe('OAuth2 access tokens of an app (control API)', () => {
  it('issues a Bearer token with the defaults, lists it and accepts it on the developer API', async () => {
    const res = await issue();
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read write' });
    expect(res.body.access_token).toMatch(/^[0-9a-f]{48}$/);
    expect(res.body.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect((await list()).body.tokens).toEqual([res.body]);
    expect((await accounts(res.body.access_token)).status).toBe(200);
  });

  it('takes a scope and a lifetime, and lists only that app’s live tokens, oldest first', async () => {
    const a = (await issue({ scope: 'read', expires_in_seconds: 60 })).body;
    const b = (await issue({ expires_in_seconds: 86400 })).body;
    expect(a).toMatchObject({ scope: 'read', expires_in: 60 });
    expect((await list()).body.tokens.map((x: { access_token: string }) => x.access_token)).toEqual(
      [a.access_token, b.access_token],
    );
    expect((await list(t.fixtures.developers[1]!.app.api_key)).body.tokens).toEqual([]);
  });

  it('expires a token on the sandbox clock: it leaves the list and is refused', async () => {
    const tok = (await issue({ expires_in_seconds: 60 })).body.access_token;
    t.advance(59);
    expect((await list()).body.tokens[0].expires_in).toBe(1);
    expect((await accounts(tok)).status).toBe(200);
    t.advance(1);
    expect((await list()).body.tokens).toEqual([]);
    const res = await accounts(tok);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
  });

  it('an expired token stays expired when the clock moves back: refused and unlisted after advance + reset', async () => {
    const tok = (await issue({ expires_in_seconds: 60 })).body.access_token;
    const keep = (await issue({ expires_in_seconds: 3600 })).body.access_token;
    expect(
      (await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 61 } })).status,
    ).toBe(200);
    expect((await t.request('POST', '/_sandbox/clock/reset')).status).toBe(200);
    expect((await accounts(tok)).status).toBe(401);
    expect((await list()).body.tokens.map((x: { access_token: string }) => x.access_token)).toEqual(
      [keep],
    );
    const row = t.db
      .prepare('SELECT expired_at, expires_at FROM app_access_tokens WHERE access_token = ?')
      .get(tok) as Record<string, number>;
    expect(row.expired_at).toBe(row.expires_at);
    // Listed as expired when asked, never as live.
    const all = (
      await t.request('GET', `/_sandbox/apps/${dev().app.api_key}/tokens?include=expired`)
    ).body.tokens;
    expect(
      all.map((x: Record<string, unknown>) => [
        x.access_token,
        x.expired ?? false,
        x.expires_in === 0,
      ]),
    ).toEqual([
      [tok, true, true],
      [keep, false, false],
    ]);
    expect(all[0].expired_at).toBe(all[0].expires_at);
    expect(
      (await t.request('GET', `/_sandbox/apps/${dev().app.api_key}/tokens?include=revoked`)).status,
    ).toBe(400);
    expect(
      (await t.request('DELETE', `/_sandbox/apps/${dev().app.api_key}/tokens/${tok}`)).status,
    ).toBe(404);
    expect((await accounts(keep)).status).toBe(200);
  });

  it('a token whose expiry real time reached is recorded by the clock work before a reset moves time back', async () => {
    const tok = (await issue({ expires_in_seconds: 60 })).body.access_token;
    t.advance(61); // the offset moves with no clock work run (as between two background ticks)
    expect((await t.request('POST', '/_sandbox/clock/reset')).status).toBe(200);
    expect((await accounts(tok)).status).toBe(401);
  });

  it('the same on a workspace clock: a token that expired before its workspace clock is reset stays expired', async () => {
    const ws = (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace;
    const tok = (await issue({ expires_in_seconds: 60 }, ws.app.api_key)).body.access_token;
    // The offset moves with no clock work run (as between two background ticks).
    t.services.tenants.setOffset(ws.id, 61_000_000);
    const reset = await t.request('POST', `/_sandbox/workspaces/${ws.id}/clock/reset`);
    expect(reset.status).toBe(200);
    expect((await accounts(tok)).status).toBe(401);
    expect((await list(ws.app.api_key)).body.tokens).toEqual([]);
  });

  it('revokes a token: 204, then refused and gone from the list; a second revoke is 404', async () => {
    const keep = (await issue()).body.access_token;
    const tok = (await issue()).body.access_token;
    const path = `/_sandbox/apps/${dev().app.api_key}/tokens/${tok}`;
    expect((await t.request('DELETE', path)).status).toBe(204);
    expect((await accounts(tok)).status).toBe(401);
    expect((await list()).body.tokens.map((x: { access_token: string }) => x.access_token)).toEqual(
      [keep],
    );
    expect((await t.request('DELETE', path)).status).toBe(404);
    expect((await accounts(keep)).status).toBe(200);
  });

  it('does not revoke through another app, nor an expired token', async () => {
    const tok = (await issue({ expires_in_seconds: 10 })).body.access_token;
    const other = t.fixtures.developers[1]!.app.api_key;
    expect((await t.request('DELETE', `/_sandbox/apps/${other}/tokens/${tok}`)).status).toBe(404);
    expect((await accounts(tok)).status).toBe(200);
    t.advance(10);
    expect(
      (await t.request('DELETE', `/_sandbox/apps/${dev().app.api_key}/tokens/${tok}`)).status,
    ).toBe(404);
  });

  it('refuses bad input and unknown apps with the envelope, issuing nothing', async () => {
    const count = () =>
      (t.db.prepare('SELECT COUNT(*) AS n FROM app_access_tokens').get() as { n: number }).n;
    for (const body of [
      { expires_in_seconds: 0 },
      { expires_in_seconds: 31536001 },
      { expires_in_seconds: 1.5 },
      { scope: '' },
      { scope: 'a  b' },
      { scope: 'bad"quote' },
      { other: 1 },
    ]) {
      const res = await issue(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error_codes).toEqual(['validation_error']);
    }
    const unknown = await issue({}, 'no-such-key');
    expect(unknown.status).toBe(404);
    expect((await list('no-such-key')).status).toBe(404);
    expect(count()).toBe(0);
  });

  it('a deleted workspace takes its apps’ tokens with it', async () => {
    const ws = (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace;
    const tok = (await issue({}, ws.app.api_key)).body.access_token;
    expect((await accounts(tok)).status).toBe(200);
    expect((await t.request('DELETE', `/_sandbox/workspaces/${ws.id}`)).status).toBe(204);
    expect((await accounts(tok)).status).toBe(401);
  });

  it('the dashboard lists each app’s live tokens, and how to issue one where there is none', async () => {
    const tok = (await issue({ scope: 'read' })).body.access_token;
    const page = (await t.request('GET', '/_sandbox/', { operationId: false })).text;
    expect(page).toContain(`<code>${tok}</code>`);
    const hint = (key: string) =>
      `none; issue one with <code>POST /_sandbox/apps/${key}/tokens</code>`;
    expect(page).toContain(hint(t.fixtures.developers[1]!.app.api_key));
    expect(page).not.toContain(hint(dev().app.api_key));
    await t.request('DELETE', `/_sandbox/apps/${dev().app.api_key}/tokens/${tok}`);
    expect((await t.request('GET', '/_sandbox/', { operationId: false })).text).not.toContain(
      `<code>${tok}</code>`,
    );
  });

  it('the banner has one OAuth2 line per app: the hint to issue one, or its newest live token', async () => {
    const url = 'http://127.0.0.1:7070';
    const oauthLines = () =>
      banner(t.sandbox, url, 1)
        .split('\n')
        .filter((l) => l.trimStart().startsWith('oauth2 '));
    expect(oauthLines()).toHaveLength(t.fixtures.developers.length);
    expect(oauthLines()[0]).toContain(
      `issue one: POST ${url}/_sandbox/apps/${dev().app.api_key}/tokens`,
    );
    await issue();
    const newest = (await issue()).body.access_token;
    expect(oauthLines()[0]).toContain(`Bearer ${newest} (+1 more)`);
    expect(oauthLines()).toHaveLength(t.fixtures.developers.length);
  });
});
