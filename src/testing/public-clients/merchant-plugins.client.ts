import { sendRaw, type WireResponse } from './wire.support.js';

/**
 * An eload client: OAuth2 `Authorization: Bearer <token>` on the developer API (no HMAC, no nonce),
 * with the v1 and v4 paths it calls, spelled as it spells them.
 */
export function eloadClient(base: string, accessToken: string) {
  const get = (pathAndQuery: string): Promise<WireResponse> =>
    sendRaw('GET', `${base}${pathAndQuery}`, {
      Authorization: `Bearer ${accessToken}`,
      Accept: 'application/json',
    });
  return {
    sellOrders: () => get('/v1/sellorder?limit=10&offset=0'),
    buyOrder: (id: string) => get(`/v1/buyorder/${id}/`),
    payoutOutlet: (id: string) => get(`/v1/payout-outlets/${id}`),
    payoutOutletsV4: () => get('/v4/payout-outlets/?language=en&per_page=1000'),
  };
}

/**
 * The WooCommerce plugin: creates an invoice with `Authorization: Token <merchant token>` and a body of
 * only amount, currency and external_transaction_id; checks an order's invoice (inquiry and daily sync)
 * with a plain GET that carries no Authorization header, reading `invoice.status`.
 */
export function wooCommercePlugin(base: string, merchantToken: string) {
  return {
    createInvoice: (body: { amount: string; currency: string; external_transaction_id: string }) =>
      sendRaw(
        'POST',
        `${base}/v1/invoices/`,
        {
          Authorization: `Token ${merchantToken}`,
          'Content-Type': 'application/json',
          Accept: 'application/json',
        },
        JSON.stringify(body),
      ),
    inquire: (id: string) =>
      sendRaw('GET', `${base}/v1/invoices/${id}`, { Accept: 'application/json' }),
  };
}
