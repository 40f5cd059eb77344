import { errorCodesOf } from '../../src/client/index.js';
/**
 * Test-only deviations from the contract, injected between the clients and the network: a fetch
 * wrapper that rewrites real sandbox responses the way a drifting service would answer. Never a flag
 * of the product or of the suite; only the meta-tests pass one to a target.
 */

export interface Exchange {
  method: string;
  url: URL;
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined when the body is not JSON. */
  json: unknown;
}

export interface Rewrite {
  status?: number;
  headers?: Record<string, string>;
  /** A new JSON body. */
  json?: unknown;
}

export interface Deviation {
  name: string;
  /** What a readable drift entry about it must say. */
  expect: RegExp;
  rewrite(x: Exchange): Rewrite | undefined;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** Apply `fn` to every invoice in a body (`{invoice}`, `{invoices: [...]}`, control outcomes). */
function mapInvoices(body: unknown, fn: (inv: Json) => Json): unknown {
  if (!isObject(body)) return undefined;
  if (isObject(body.invoice)) return { ...body, invoice: fn(body.invoice) };
  if (Array.isArray(body.invoices))
    return { ...body, invoices: body.invoices.map((i) => (isObject(i) ? fn(i) : i)) };
  return undefined;
}

export const deviations: Deviation[] = [
  {
    name: 'wrong error body ({"detail": …} instead of {"errors": …})',
    expect: /missing required field "errors"/,
    rewrite: ({ json }) => {
      if (!isObject(json) || !isObject(json.errors) || 'success' in json) return undefined;
      const first = Object.values(json.errors as Record<string, string[]>)[0]?.[0] ?? 'Error.';
      return { json: { detail: first } };
    },
  },
  {
    name: 'next_page 0 instead of null',
    expect: /next_page = 0 must be >= 1|next_page is 0, expected null/,
    rewrite: ({ json }) => {
      if (!isObject(json) || !isObject(json.meta) || json.meta.next_page !== null) return undefined;
      return { json: { ...json, meta: { ...json.meta, next_page: 0 } } };
    },
  },
  {
    name: 'invoice amount with 2 decimals ("20.00" instead of "20.00000000")',
    expect: /amount = "\d+\.\d\d" does not match/,
    rewrite: ({ json }) => {
      const body = mapInvoices(json, (inv) => ({
        ...inv,
        amount: typeof inv.amount === 'string' ? Number(inv.amount).toFixed(2) : inv.amount,
      }));
      return body === undefined ? undefined : { json: body };
    },
  },
  {
    name: '403 instead of 401 for a bad signature',
    expect:
      /status 403 is not documented for listCryptoAccounts|expected 401 invalid_signature, observed 403/,
    rewrite: ({ status, json }) =>
      status === 401 && errorCodesOf(json).includes('invalid_signature')
        ? { status: 403 }
        : undefined,
  },
  {
    name: 'a required invoice field missing (expires_at)',
    expect: /missing required field "expires_at"/,
    rewrite: ({ json }) => {
      const body = mapInvoices(json, ({ expires_at: _dropped, ...rest }) => rest);
      return body === undefined ? undefined : { json: body };
    },
  },
  {
    name: 'JSON served as text/plain (wallet accounts)',
    expect: /Content-Type is "text\/plain[^"]*", the document says application\/json/,
    rewrite: ({ url }) =>
      url.pathname.startsWith('/v3/crypto-accounts')
        ? { headers: { 'content-type': 'text/plain; charset=utf-8' } }
        : undefined,
  },
  {
    name: 'an undocumented error code (nonce_too_low instead of invalid_nonce)',
    expect: /"nonce_too_low" is not one of|observed codes \["nonce_too_low"\]/,
    rewrite: ({ json }) =>
      isObject(json) && isObject(json.sandbox_debug) && json.sandbox_debug.code === 'invalid_nonce'
        ? { json: { ...json, sandbox_debug: { ...json.sandbox_debug, code: 'nonce_too_low' } } }
        : undefined,
  },
  {
    name: 'error_codes on a developer-API error (the real body has none)',
    expect: /a developer-API error carries "error_codes"/,
    rewrite: ({ url, json }) =>
      url.pathname.startsWith('/v3/crypto-accounts') &&
      isObject(json) &&
      isObject(json.errors) &&
      !('error_codes' in json)
        ? { json: { error_codes: [], ...json } }
        : undefined,
  },
];

/** A fetch that answers like `inner`, with the deviation applied to every response it matches. */
export function deviationFetch(d: Deviation, inner: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const text = await res.text();
    let json: unknown;
    try {
      json =
        (res.headers.get('content-type') ?? '').includes('json') && text
          ? JSON.parse(text)
          : undefined;
    } catch {
      json = undefined;
    }
    const change = d.rewrite({
      method: init?.method ?? 'GET',
      url,
      status: res.status,
      headers: res.headers,
      json,
    });
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    for (const [k, v] of Object.entries(change?.headers ?? {})) headers.set(k, v);
    const status = change?.status ?? res.status;
    const body = change?.json !== undefined ? JSON.stringify(change.json) : text;
    return new Response(status === 204 || status === 304 ? null : body, {
      status,
      statusText: res.statusText,
      headers,
    });
  };
}
