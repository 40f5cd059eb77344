import type { ApiResponse } from '../../src/client/index.js';
import type { CaseContext } from '../harness/case.context.js';
import { sameJson } from '../harness/compare.js';

/** What the wallet cases share: signed calls by path, the owner's wallets, reading a resource back. */

export type Body = Record<string, any>;

/** A signed call of the developer API by path (the typed client has no wallet-operation methods). */
export const signed = (
  ctx: CaseContext,
  method: string,
  path: string,
  operationId: string,
  body?: unknown,
): Promise<ApiResponse<Body>> => ctx.dev.request<Body>({ method, path, body, operationId });

export async function accountIn(ctx: CaseContext, currency: string) {
  const page = await ctx.dev.listCryptoAccounts({ currency, per_page: 100 });
  return page['crypto-accounts'][0];
}

/** The application owner's wallet of `currency`; none is drift. */
export async function walletIn(ctx: CaseContext, currency: string) {
  return ctx.expectPresent(
    await accountIn(ctx, currency),
    `the application owner has no ${currency} wallet account`,
    'listCryptoAccounts',
  );
}

/**
 * Reads one item back by id as the published clients do (`<id>/?id=<id>`): the same resource under the
 * create's key, except for a status it may have moved to since (`moved`).
 */
export async function readBack(
  ctx: CaseContext,
  path: string,
  operationId: string,
  key: string,
  created: Body,
  moved: string[],
) {
  const res = await signed(ctx, 'GET', `${path}${created.id}/?id=${created.id}`, operationId);
  ctx.expectStatus(res, 200);
  const item = res.body[key] as Body | undefined;
  ctx.check(
    item !== undefined &&
      sameJson({ ...item, status: created.status }, created) &&
      [created.status, ...moved].includes(item.status),
    `${path}${created.id}/ reads differently from how it was created: ${res.text}`,
    operationId,
  );
}
