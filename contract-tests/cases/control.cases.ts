import { required } from '../../src/shared/defined.js';
import type { BuyOrder } from '../../src/client/index.js';
import type { CaseContext, ContractCase } from '../harness/case.context.js';
import { sameJson } from '../harness/compare.js';
import { walkOffsets, walkPages } from '../harness/page.walker.js';

const controlList = (
  ctx: CaseContext,
  path: string,
  operationId: string,
  key: string,
  scope: Record<string, string> = {},
) =>
  walkPages(ctx, {
    key,
    perPage: 2,
    fetch: (page, per_page) =>
      ctx.control.request({
        method: 'GET',
        path,
        query: { page, per_page, ...scope },
        operationId,
      }),
  });

/** The control API itself (docs/design.md#control-api): workspaces, lists, nonce reset, clock, buy orders. */
export const controlCases: ContractCase[] = [
  {
    name: 'control: a workspace is an isolated tenant with working credentials, deleted in one call',
    tags: ['write', 'sandbox'],
    async run(ctx) {
      const ws = await ctx.control.createWorkspace({ ttl_seconds: 600 });
      ctx.expectLastStatus('createWorkspace', 201);
      const merchant = ctx.anon;
      const auth = { authorization: `Token ${ws.merchant.merchant_api_token}` };
      const list = await merchant.send({
        method: 'GET',
        path: '/v3/invoices/',
        headers: auth,
        operationId: 'listInvoices',
      });
      ctx.expectStatus(list, 200);
      ctx.check(
        (list.body as { meta: { total_count: number } }).meta.total_count === 0,
        'a fresh workspace merchant already has invoices',
        'listInvoices',
      );
      const dev = ctx.devFor(ws.app.api_key, ws.app.api_secret);
      const peso = (await dev.listCryptoAccounts({ currency: 'PBTC' }))['crypto-accounts'][0];
      ctx.check(
        peso !== undefined && Number(peso.balance) > 0,
        'the workspace application has no funded peso wallet (PBTC)',
        'listCryptoAccounts',
      );
      ctx.check(
        ws.customer.accounts.some((a) => Number(a.balance) > 0),
        'the workspace customer is not funded',
        'createWorkspace',
      );
      await ctx.control.deleteWorkspace(ws.id);
      ctx.expectLastStatus('deleteWorkspace', 204);
      ctx.expectError(
        await merchant.send({
          method: 'GET',
          path: '/v3/invoices/',
          headers: auth,
          operationId: 'listInvoices',
        }),
        401,
        'invalid_token',
      );
    },
  },
  {
    name: 'control: a workspace saved as a snapshot, exported, imported and restored into a new workspace',
    tags: ['write', 'sandbox'],
    async run(ctx) {
      const ws = await ctx.control.createWorkspace({ ttl_seconds: 600 });
      const auth = {
        authorization: `Token ${ws.merchant.merchant_api_token}`,
        'content-type': 'application/json',
      };
      const invoice = { amount: 20, currency: 'PHP', external_transaction_id: 'snapshot-1' };
      ctx.expectStatus(
        await ctx.anon.send({
          method: 'POST',
          path: '/v1/invoices/',
          headers: auth,
          body: invoice,
          operationId: 'createInvoiceV1',
        }),
        201,
      );
      const taken = await ctx.control.request({
        method: 'POST',
        path: `/_sandbox/workspaces/${ws.id}/snapshots`,
        operationId: 'createSnapshot',
      });
      ctx.expectStatus(taken, 201);
      const snapshot = (taken.body as { snapshot: { id: string } }).snapshot;
      ctx.expectStatus(
        await ctx.control.request({
          method: 'GET',
          path: `/_sandbox/workspaces/${ws.id}/snapshots`,
          operationId: 'listSnapshots',
        }),
        200,
      );
      const exported = await ctx.control.request({
        method: 'GET',
        path: `/_sandbox/snapshots/${snapshot.id}/export`,
        operationId: 'exportSnapshot',
      });
      ctx.expectStatus(exported, 200);
      const imported = await ctx.control.request({
        method: 'POST',
        path: '/_sandbox/snapshots',
        body: exported.body,
        operationId: 'importSnapshot',
      });
      ctx.expectStatus(imported, 201);
      const from = (imported.body as { snapshot: { id: string } }).snapshot.id;
      const made = await ctx.control.request({
        method: 'POST',
        path: '/_sandbox/workspaces',
        body: { from_snapshot: from, ttl_seconds: 600 },
        operationId: 'createWorkspace',
      });
      ctx.expectStatus(made, 201);
      const copy = (
        made.body as { workspace: { id: string; merchant: { merchant_api_token: string } } }
      ).workspace;
      ctx.check(
        copy.merchant.merchant_api_token !== ws.merchant.merchant_api_token,
        'the copy kept the merchant token of the original',
        'createWorkspace',
      );
      const list = await ctx.anon.send({
        method: 'GET',
        path: '/v3/invoices/',
        headers: { authorization: `Token ${copy.merchant.merchant_api_token}` },
        operationId: 'listInvoices',
      });
      ctx.expectStatus(list, 200);
      const ids = (
        list.body as { invoices: Array<{ external_transaction_id: string }> }
      ).invoices.map((i) => i.external_transaction_id);
      ctx.check(
        ids.length === 1 && ids[0] === 'snapshot-1',
        `the copy lists ${JSON.stringify(ids)}, not the saved invoice`,
        'listInvoices',
      );
      await ctx.control.deleteWorkspace(copy.id);
      await ctx.control.deleteWorkspace(ws.id);
    },
  },
  {
    name: 'control: every page of merchants, apps, customers and deliveries',
    tags: ['read', 'sandbox'],
    async run(ctx) {
      // A sandbox behind a URL may be shared with other runs, whose workspaces come and go while we walk:
      // there the run walks its own workspace's lists and its own merchant's deliveries.
      const ws = ctx.info.kind === 'url' ? ctx.info.workspaceId : undefined;
      const own: Record<string, string> = ws ? { workspace_id: ws } : {};
      await controlList(ctx, '/_sandbox/merchants', 'listMerchants', 'merchants', own);
      await controlList(ctx, '/_sandbox/apps', 'listApps', 'apps', own);
      await controlList(ctx, '/_sandbox/customers', 'listCustomers', 'customers', own);
      await controlList(
        ctx,
        '/_sandbox/deliveries',
        'listDeliveries',
        'deliveries',
        ws && ctx.creds.merchantId ? { merchant_id: ctx.creds.merchantId } : {},
      );
    },
  },
  {
    name: 'control: a key locked to a huge nonce is unlocked by the nonce reset',
    tags: ['write', 'sandbox'],
    async run(ctx) {
      const app = await ctx.control.createApp({
        name: `ct-${ctx.info.runId}-nonce`,
        mfa_whitelisted: true,
        workspace_id: ctx.info.workspaceId,
      });
      const dev = ctx.devFor(app.api_key, app.api_secret);
      const accounts = {
        method: 'GET',
        path: '/v3/crypto-accounts/',
        operationId: 'listCryptoAccounts',
      } as const;
      ctx.expectStatus(await dev.request({ ...accounts, sign: { nonce: '1.763837e+262' } }), 200);
      ctx.expectError(await dev.request(accounts), 401, 'invalid_nonce');
      const reset = await ctx.control.resetAppNonce(app.api_key);
      ctx.check(
        reset.api_key === app.api_key,
        'nonce reset answered for another app',
        'resetAppNonce',
      );
      ctx.expectStatus(await dev.request(accounts), 200);
    },
  },
  {
    name: 'control: the clock answers, a non-positive advance is 400',
    tags: ['read', 'sandbox'],
    async run(ctx) {
      const clock = await ctx.control.getClock();
      ctx.check(
        Number.isFinite(clock.offset_seconds),
        `offset_seconds ${clock.offset_seconds}`,
        'getClock',
      );
      for (const seconds of [0, -5]) {
        const res = await ctx.control.request({
          method: 'POST',
          path: '/_sandbox/clock/advance',
          body: { seconds },
          operationId: 'advanceClock',
        });
        ctx.expectError(res, 400, 'validation_error', 'seconds');
      }
    },
  },
  {
    name: "control: the run's workspace has its own clock; an advance moves it alone",
    tags: ['read', 'sandbox'],
    needs: (t) =>
      t.info.workspaceId ? undefined : 'the credentials are not a workspace of this run',
    async run(ctx) {
      const ws = required(ctx.info.workspaceId, 'the workspace of this run (needs checked it)');
      const before = await ctx.control.getClock();
      const own = await ctx.control.getWorkspaceClock(ws);
      ctx.check(
        Number.isFinite(own.offset_seconds) && own.offset_seconds >= 0,
        `offset_seconds ${own.offset_seconds}`,
        'getWorkspaceClock',
      );
      const moved = await ctx.control.advanceWorkspaceClock(ws, 1);
      ctx.check(
        moved.offset_seconds === own.offset_seconds + 1,
        `offset ${own.offset_seconds} became ${moved.offset_seconds}`,
        'advanceWorkspaceClock',
      );
      const after = await ctx.control.getClock();
      ctx.check(
        after.offset_seconds === before.offset_seconds,
        `the sandbox clock moved: ${before.offset_seconds} → ${after.offset_seconds}`,
        'getClock',
      );
      for (const seconds of [0, -5]) {
        const res = await ctx.control.request({
          method: 'POST',
          path: `/_sandbox/workspaces/${ws}/clock/advance`,
          body: { seconds },
          operationId: 'advanceWorkspaceClock',
        });
        ctx.expectError(res, 400, 'validation_error', 'seconds');
      }
      const unknown = await ctx.control.request({
        method: 'GET',
        path: `/_sandbox/workspaces/${'0'.repeat(32)}/clock`,
        operationId: 'getWorkspaceClock',
      });
      ctx.expectError(unknown, 404, 'not_found');
    },
  },
  {
    name: 'orders: buy orders made through the control API are listed and retrieved',
    tags: ['write', 'sandbox'],
    async run(ctx) {
      const made: BuyOrder[] = [];
      for (const amount of ['250', '500', '1000']) {
        const res = await ctx.control.request({
          method: 'POST',
          path: '/_sandbox/buyorders',
          body: { api_key: ctx.creds.apiKey, amount },
          operationId: 'createBuyOrder',
        });
        ctx.expectStatus(res, 201);
        made.push((res.body as { order: BuyOrder }).order);
      }
      const walk = await walkOffsets(ctx, {
        key: 'orders',
        limit: 2,
        fetch: (offset, limit) =>
          ctx.dev.request({
            method: 'GET',
            path: '/v2/buyorder',
            query: { offset, limit },
            operationId: 'listBuyOrders',
          }),
      });
      ctx.check(
        made.every((o) => walk.ids.includes(o.id)),
        'buy orders made through the control API are not listed',
        'listBuyOrders',
      );
      for (const o of made)
        ctx.check(
          sameJson(await ctx.dev.getBuyOrder(o.id), o),
          `buy order ${o.id} retrieves differently`,
          'getBuyOrder',
        );
    },
  },
];
