import type { CaseContext, ContractCase } from '../harness/case.context.js';

interface AccessToken {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

/** OAuth2 access tokens of an app (issued through the control API) in place of the HMAC headers. */
export const oauthCases: ContractCase[] = [
  {
    name: 'oauth: a token issued for the app works as Bearer on the developer API until it is revoked',
    tags: ['read', 'sandbox'],
    async run(ctx: CaseContext) {
      const key = encodeURIComponent(ctx.creds.apiKey);
      const issued = await ctx.control.request<AccessToken>({
        method: 'POST',
        path: `/_sandbox/apps/${key}/tokens`,
        body: { scope: 'read', expires_in_seconds: 600 },
        operationId: 'createAppToken',
      });
      ctx.expectStatus(issued, 201);
      const tok = issued.body;
      ctx.check(tok.token_type === 'Bearer' && tok.scope === 'read' && tok.expires_in === 600, `issued ${JSON.stringify(tok)}`, 'createAppToken');
      const listed = await ctx.control.request<{ tokens: AccessToken[] }>({ method: 'GET', path: `/_sandbox/apps/${key}/tokens`, operationId: 'listAppTokens' });
      ctx.expectStatus(listed, 200);
      ctx.check(listed.body.tokens.some((x) => x.access_token === tok.access_token), 'the new token is not listed', 'listAppTokens');

      const headers = { authorization: `Bearer ${tok.access_token}` };
      const viaBearer = await ctx.anon.send({ method: 'GET', path: '/v3/crypto-accounts/', headers, operationId: 'listCryptoAccounts' });
      ctx.expectStatus(viaBearer, 200);
      const viaHmac = await ctx.dev.listCryptoAccounts();
      const ids = (page: { 'crypto-accounts': Array<{ id: string }> }) => page['crypto-accounts'].map((a) => a.id).join(',');
      ctx.check(ids(viaBearer.body as never) === ids(viaHmac), 'Bearer and HMAC list different accounts for one app', 'listCryptoAccounts');

      const revoked = await ctx.control.request({
        method: 'DELETE',
        path: `/_sandbox/apps/${key}/tokens/${tok.access_token}`,
        operationId: 'revokeAppToken',
      });
      ctx.expectStatus(revoked, 204);
      ctx.expectError(await ctx.anon.send({ method: 'GET', path: '/v3/crypto-accounts/', headers, operationId: 'listCryptoAccounts' }), 401, 'invalid_token');
      ctx.expectError(
        await ctx.control.request({ method: 'DELETE', path: `/_sandbox/apps/${key}/tokens/${tok.access_token}`, operationId: 'revokeAppToken' }),
        404,
        'not_found',
      );
    },
  },
];
