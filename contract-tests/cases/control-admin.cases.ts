import type { RequestSpec } from '../../src/client/index.js';
import type { SandboxAccount, SandboxCustomer, SandboxMerchant } from '../../src/client/index.js';
import type { CaseContext, ContractCase } from '../harness/case.context.js';
import { units } from '../harness/decimal.js';
import { itemAt } from '../../src/shared/defined.js';

async function control<T>(ctx: CaseContext, spec: RequestSpec, status: number): Promise<T> {
  const res = await ctx.control.request<T>(spec);
  ctx.expectStatus(res, status);
  return res.body;
}

/** Control-API administration (docs/design.md#control-api): identities, funding, faults, the request log. */
export const controlAdminCases: ContractCase[] = [
  {
    name: 'control: a merchant and a customer made through the control API work at once; funding adds exactly',
    tags: ['write', 'sandbox'],
    async run(ctx) {
      const { merchant } = await control<{ merchant: SandboxMerchant }>(
        ctx,
        {
          method: 'POST',
          path: '/_sandbox/merchants',
          // Inside the run's workspace on a sandbox: nothing is left in the shared base data.
          body: { name: `ct-${ctx.info.runId}`, workspace_id: ctx.info.workspaceId },
          operationId: 'createMerchant',
        },
        201,
      );
      const list = await ctx.anon.send({
        method: 'GET',
        path: '/v3/invoices/',
        headers: { authorization: `Bearer ${merchant.merchant_api_token}` },
        operationId: 'listInvoices',
      });
      ctx.expectStatus(list, 200);
      const { customer } = await control<{ customer: SandboxCustomer }>(
        ctx,
        {
          method: 'POST',
          path: '/_sandbox/customers',
          body: { workspace_id: ctx.info.workspaceId },
          operationId: 'createCustomer',
        },
        201,
      );
      const wallet = ctx.expectPresent(
        customer.accounts.find((a) => a.currency === 'PHP'),
        'a new customer has no PHP wallet',
        'createCustomer',
      );
      const { account } = await control<{ account: SandboxAccount }>(
        ctx,
        {
          method: 'POST',
          path: `/_sandbox/accounts/${wallet.id}/fund`,
          body: { amount: '10.5' },
          operationId: 'fundAccount',
        },
        200,
      );
      ctx.check(
        units(account.balance) - units(wallet.balance) === units('10.5'),
        `funding 10.5 took ${wallet.balance} to ${account.balance}`,
        'fundAccount',
      );
      const again = await ctx.control.getAccount(wallet.id);
      ctx.check(
        again.balance === account.balance && again.owner.id === customer.id,
        `account reads back as ${JSON.stringify(again)}`,
        'getAccount',
      );
      const missing = await ctx.control.request({
        method: 'GET',
        path: `/_sandbox/accounts/${'0'.repeat(32)}`,
        operationId: 'getAccount',
      });
      ctx.expectError(missing, 404, 'not_found');
    },
  },
  {
    name: 'control: an injected fault answers as configured, is listed, and is used up',
    tags: ['sandbox'],
    async run(ctx) {
      const path = `/v1/invoices/ct-fault-${ctx.info.runId}`;
      const { fault } = await control<{ fault: { id: string; hits: number } }>(
        ctx,
        {
          method: 'POST',
          path: '/_sandbox/faults',
          body: { method: 'GET', path, status: 502, count: 1 },
          operationId: 'createFault',
        },
        201,
      );
      // Nothing left behind on a shared sandbox, even when the case fails before the fault is used up.
      ctx.defer(
        async () =>
          void (await ctx.control.request({
            method: 'DELETE',
            path: `/_sandbox/faults/${fault.id}`,
            operationId: 'deleteFault',
          })),
      );
      const { faults } = await control<{ faults: Array<{ id: string }> }>(
        ctx,
        { method: 'GET', path: '/_sandbox/faults', operationId: 'listFaults' },
        200,
      );
      ctx.check(
        faults.some((f) => f.id === fault.id),
        'the new fault is not listed',
        'listFaults',
      );
      ctx.expectError(await ctx.anon.send({ method: 'GET', path }), 502, 'injected_fault');
      ctx.expectError(await ctx.anon.send({ method: 'GET', path }), 404, 'not_found');
      // Only our own in-process sandbox is cleared: other users' faults on a shared one stay.
      if (ctx.info.kind === 'sandbox')
        await control(
          ctx,
          { method: 'DELETE', path: '/_sandbox/faults', operationId: 'clearFaults' },
          204,
        );
    },
  },
  {
    name: 'control: the request log shows recent requests with their auth outcome, newest first',
    tags: ['read', 'sandbox'],
    async run(ctx) {
      const marker = `/v3/ct-logged-${ctx.info.runId}`;
      await ctx.anon.send({ method: 'GET', path: marker });
      const { requests } = await control<{
        requests: Array<{ path: string; status: number; at: string }>;
      }>(
        ctx,
        {
          method: 'GET',
          path: '/_sandbox/requests',
          query: { per_page: 20 },
          operationId: 'listRequests',
        },
        200,
      );
      const hit = requests.find((r) => r.path === marker);
      ctx.check(
        hit?.status === 404,
        `the request log does not show GET ${marker} → 404`,
        'listRequests',
      );
      ctx.check(
        requests.every(
          (r, i) => i === 0 || Date.parse(itemAt(requests, i - 1).at) >= Date.parse(r.at),
        ),
        'the request log is not newest first',
        'listRequests',
      );
    },
  },
];
