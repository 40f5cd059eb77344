import type { TestApp } from './test-app.js';
import { itemAt, required } from '../shared/defined.js';

/** Test support for the hosted page (imported by *.test.ts only). */

export interface PageResponse {
  status: number;
  headers: Headers;
  html: string;
  /** `name=value` of the Set-Cookie header, when one was set. */
  cookie: string | null;
}

let serial = 0;

/** Create an invoice through the real API with the merchant's Token. */
export async function createInvoice(
  t: TestApp,
  over: Record<string, unknown> = {},
  token = t.merchant.merchant_api_token,
) {
  const res = await t.request('POST', '/v1/invoices/', {
    token,
    body: {
      amount: 20,
      currency: 'PHP',
      external_transaction_id: `checkout-${++serial}-${Date.now()}`,
      description: 'Two coffees',
      ...over,
    },
  });
  if (res.status !== 201) throw new Error(`invoice create failed: ${res.status} ${res.text}`);
  return res.body.invoice as { id: string; payment_url: string; [k: string]: unknown };
}

async function toPage(res: Response): Promise<PageResponse> {
  const set = res.headers.get('set-cookie');
  return {
    status: res.status,
    headers: res.headers,
    html: await res.text(),
    cookie: set ? itemAt(set.split(';'), 0) : null,
  };
}

export async function getPage(
  t: TestApp,
  path: string,
  cookie?: string | null,
): Promise<PageResponse> {
  return toPage(
    await t.sandbox.app.request(`http://localhost${path}`, { headers: cookie ? { cookie } : {} }),
  );
}

/** A plain HTML form post, as the browser sends it. */
export async function postForm(
  t: TestApp,
  path: string,
  form: Record<string, string> = {},
  cookie?: string | null,
): Promise<PageResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (cookie) headers.cookie = cookie;
  return toPage(
    await t.sandbox.app.request(`http://localhost${path}`, {
      method: 'POST',
      headers,
      body: new URLSearchParams(form).toString(),
    }),
  );
}

/** Every `data-testid` in a page, in document order (repeats kept). */
export const testIds = (html: string) =>
  [...html.matchAll(/data-testid="([^"]+)"/g)].map((m) => itemAt(m, 1));

/** The text inside the first element with this test id (tags stripped, entities left). */
export function textOf(html: string, testId: string): string | null {
  const m = new RegExp(`data-testid="${testId}"[^>]*>([\\s\\S]*?)</`).exec(html);
  return m
    ? itemAt(m, 1)
        .replace(/<[^>]+>/g, '')
        .trim()
    : null;
}

export function balanceOf(t: TestApp, accountId: string): bigint {
  return required(t.services.ledger.get(accountId), `account ${accountId}`).balance;
}
