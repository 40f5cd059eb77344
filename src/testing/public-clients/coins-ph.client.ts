import { stringify } from 'node:querystring';
import { hmacHex, nextMillisecond, sendRaw, type WireResponse } from './wire.support.js';

/**
 * The wire habits of the npm packages `coins-ph` (1.1.17) and `coins-ph-promise`, written from what
 * those clients are known to send (docs/public-clients.md), not copied from them:
 * - URL = host + version (`api/v2`, `api/v3`, default `d/api`) + `/` + path + `/`, then `?` + the params
 *   (Node's querystring), so every URL has a slash before its query — except one sell order's, whose
 *   trailing slash the client strips (`api/v2/sellorder/<id>?sellorder_id=<id>`) since the real service
 *   answered the slashed form 404 in 2018;
 * - headers `ACCESS_SIGNATURE`, `ACCESS_KEY`, `ACCESS_NONCE` with underscores, plus what the `request`
 *   library adds for `json`: `accept: application/json`, and `content-type: application/json` with a body;
 * - the body is `JSON.stringify(data)` whenever `data` is given, on a GET too (the sell-order list sends
 *   the JSON string `"order"`, the buy-order history `"orders"`); the signature is hex HMAC-SHA256 of
 *   nonce + URL + that body (nonce + URL without one);
 * - the nonce is `Date.now()` times a constant, printed by JS: `1e250` in coins-ph 1.1.17 gives
 *   `1.7954…e+262`, `1e13` in coins-ph-promise gives `1.7954…e+25`.
 * Both read `res.body.errors` to tell a failure.
 */
export type CoinsPhFlavor = 'coins-ph' | 'coins-ph-promise';

const NONCE_FACTOR: Record<CoinsPhFlavor, number> = { 'coins-ph': 1e250, 'coins-ph-promise': 1e13 };

interface RequestOptions {
  url: string;
  method?: string;
  params?: Record<string, string | number>;
  data?: unknown;
  version?: string;
  /** False for the one call whose trailing slash the client strips (one sell order). */
  trailingSlash?: boolean;
}

export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export function coinsPhClient(
  flavor: CoinsPhFlavor,
  opts: { host: string; key: string; secret: string },
) {
  const sent: SentRequest[] = [];

  async function call(o: RequestOptions): Promise<WireResponse> {
    const method = (o.method ?? 'get').toUpperCase();
    const qs = stringify(o.params ?? {});
    const slash = o.trailingSlash === false ? '' : '/';
    const url = `${opts.host}${o.version ?? 'd/api'}/${o.url}${slash}${qs ? `?${qs}` : ''}`;
    const nonce = String((await nextMillisecond()) * NONCE_FACTOR[flavor]);
    const body = o.data === undefined ? undefined : JSON.stringify(o.data);
    const signature = hmacHex(opts.secret, nonce + url + (body ?? ''));
    const headers: Record<string, string> = {
      ACCESS_SIGNATURE: signature,
      ACCESS_KEY: opts.key,
      ACCESS_NONCE: nonce,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    headers.accept = 'application/json';
    sent.push({ method, url, headers, body });
    return sendRaw(method, url, headers, body);
  }

  return {
    /** Every request as it went on the wire, for assertions on the client's habits. */
    sent,
    cryptoAccounts: (params: { currency?: string } = {}) =>
      call({ url: 'crypto-accounts', params, version: 'api/v3' }),
    createTransferRequest: (data: { account: string; target_address: string; amount: string }) =>
      call({ url: 'transfers', method: 'POST', data, version: 'api/v3' }),
    transfers: (params: { id?: string } = {}) =>
      call({ url: 'transfers' + (params.id ? `/${params.id}` : ''), params, version: 'api/v3' }),
    createSellorder: (data: Record<string, unknown>) =>
      call({ url: 'sellorder', method: 'POST', data, version: 'api/v2' }),
    sellorder: (params: { sellorder_id?: string; limit?: number; offset?: number } = {}) =>
      call({
        url: 'sellorder' + (params.sellorder_id ? `/${params.sellorder_id}` : ''),
        params,
        data: 'order',
        version: 'api/v2',
        trailingSlash: !params.sellorder_id,
      }),
    createBuyorder: (data: Record<string, unknown>) =>
      call({ url: 'buyorder', method: 'POST', data, version: 'api/v2' }),
    markBuyorderPaid: (data: { id: string }) =>
      call({ url: `buyorder/${data.id}`, method: 'PUT', params: {} }),
    buyorder: (params: { buyorder_id?: string } = {}) =>
      call({
        url: 'buyorder' + (params.buyorder_id ? `/${params.buyorder_id}` : ''),
        method: 'GET',
        params,
      }),
    transactionHistory: () =>
      call({ url: 'buyorder', params: {}, data: 'orders', version: 'api/v2' }),
    payoutOutlets: (params: Record<string, string> = {}) =>
      call({ url: 'payout-outlets', method: 'GET', params }),
    payoutOutletFees: (params: Record<string, string> = {}) =>
      call({ url: 'payout-outlet-fees', method: 'GET', params }),
    payoutOutletCategories: (params: Record<string, string> = {}) =>
      call({ url: 'payout-outlet-categories', method: 'GET', params }),
    payinOutlets: (params: Record<string, string> = {}) =>
      call({ url: 'payin-outlets', method: 'GET', params }),
    payinOutletFees: (params: Record<string, string> = {}) =>
      call({ url: 'payin-outlet-fees', method: 'GET', params }),
    payinOutletCategories: (params: Record<string, string> = {}) =>
      call({ url: 'payin-outlet-categories', method: 'GET', params }),
    validateField: (data: Record<string, unknown>) =>
      call({ url: 'validate-field', method: 'POST', params: {}, data, version: 'api/v3' }),
    createPaymentRequest: (data: {
      payer_contact_info: string;
      receiving_account: string;
      amount: string;
      message: string;
    }) => call({ url: 'payment-requests', method: 'POST', data, version: 'api/v3' }),
    paymentRequests: (params: { id?: string } = {}) =>
      call({
        url: 'getpayment-requests' + (params.id ? `/${params.id}` : ''),
        params,
        version: 'api/v3',
      }),
    convertFunds: (data: { source_account: string; target_account: string; amount: string }) =>
      call({ url: 'crypto-exchanges', method: 'POST', data, version: 'api/v3' }),
    cryptoExchanges: (params: { id?: string } = {}) =>
      call({
        url: 'crypto-exchanges' + (params.id ? `/${params.id}` : ''),
        params,
        version: 'api/v3',
      }),
    cryptoRoutes: () => call({ url: 'crypto-routes', version: 'api/v3' }),
    createCryptoPayment: (data: Record<string, unknown>) =>
      call({ url: 'crypto-payments', method: 'POST', data, version: 'api/v3' }),
    cryptoPayments: (params: { id?: string } = {}) =>
      call({
        url: 'crypto-payments' + (params.id ? `/${params.id}` : ''),
        params,
        version: 'api/v3',
      }),
  };
}

export type CoinsPhClient = ReturnType<typeof coinsPhClient>;
