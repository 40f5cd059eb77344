import type { CaseContext, ContractCase } from '../harness/case.context.js';

/** OAuth2 access tokens of an app (issued through the control API) in place of the HMAC headers. */
export const oauthCases: ContractCase[] = [
  {
    name: 'oauth: a token issued for the app works as Bearer on the developer API until it is revoked',
    tags: ['sandbox'],
    async run(ctx: CaseContext) {
      const key = ctx.creds.apiKey;
      const tok = await ctx.control.createAppToken(key, { scope: 'read', expires_in_seconds: 600 });
      ctx.check(
        tok.token_type === 'Bearer' && tok.scope === 'read' && tok.expires_in === 600,
        `issued ${JSON.stringify(tok)}`,
        'createAppToken',
      );
      const listed = await ctx.control.listAppTokens(key);
      ctx.check(
        listed.some((x) => x.access_token === tok.access_token),
        'the new token is not listed',
        'listAppTokens',
      );

      const headers = { authorization: `Bearer ${tok.access_token}` };
      const viaBearer = await ctx.anon.send({
        method: 'GET',
        path: '/v3/crypto-accounts/',
        headers,
        operationId: 'listCryptoAccounts',
      });
      ctx.expectStatus(viaBearer, 200);
      const viaHmac = await ctx.dev.listCryptoAccounts();
      const ids = (page: { 'crypto-accounts': Array<{ id: string }> }) =>
        page['crypto-accounts'].map((a) => a.id).join(',');
      ctx.check(
        ids(viaBearer.body as never) === ids(viaHmac),
        'Bearer and HMAC list different accounts for one app',
        'listCryptoAccounts',
      );

      await ctx.control.revokeAppToken(key, tok.access_token);
      ctx.expectError(
        await ctx.anon.send({
          method: 'GET',
          path: '/v3/crypto-accounts/',
          headers,
          operationId: 'listCryptoAccounts',
        }),
        401,
        'invalid_token',
      );
      ctx.expectError(
        await ctx.control.request({
          method: 'DELETE',
          path: `/_sandbox/apps/${encodeURIComponent(key)}/tokens/${tok.access_token}`,
          operationId: 'revokeAppToken',
        }),
        404,
        'not_found',
      );
    },
  },
];
