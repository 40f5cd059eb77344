import {
  hmacHex as hmac,
  microsecondNonce,
  nextMillisecond,
  sendRaw,
  type Credentials,
  type WireResponse,
} from './wire.support.js';

/**
 * A community PHP client (Guzzle): `ACCESS_*` headers, JSON content type on every call, µs nonces; it
 * reads the peso wallet with a percent-encoded comma list, lists pay-in outlets, asks for payments (with an
 * ISO 8601 `expires_at`) and cancels them.
 */
export function phpCommunityClient(c: Credentials) {
  async function call(
    method: string,
    pathAndQuery: string,
    body?: Record<string, unknown>,
  ): Promise<WireResponse> {
    const url = `${c.base}${pathAndQuery}`;
    const nonce = await microsecondNonce();
    const raw = body === undefined ? undefined : JSON.stringify(body);
    return sendRaw(
      method,
      url,
      {
        ACCESS_SIGNATURE: hmac(c.secret, nonce + url + (raw ?? '')),
        ACCESS_KEY: c.key,
        ACCESS_NONCE: nonce,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      raw,
    );
  }
  return {
    cryptoAccounts: (currencyList: string) =>
      call('GET', `/api/v3/crypto-accounts/?currency=${encodeURIComponent(currencyList)}`),
    payinOutlets: () => call('GET', '/d/api/payin-outlets/?region=PH&is_enabled=1'),
    paymentRequest: (body: {
      payer_contact_info: string;
      receiving_account: string;
      amount: string;
      message: string;
      expires_at?: string;
    }) => call('POST', '/api/v3/payment-requests/', body),
    /** Cancels a pending request. */
    cancelPaymentRequest: (id: string) => call('DELETE', `/api/v3/payment-requests/${id}/`),
  };
}

/**
 * A Ruby client (Faraday): the current header spelling `Access-Key`, `Access-Signature`, `Access-Nonce`,
 * nonce = seconds × 1e8 as an integer (`(Time.now.to_f * 1e8).to_i`), JSON bodies without whitespace,
 * and `Content-Type: application/json` on GET requests too.
 */
export function rubyClient(c: Credentials) {
  async function call(
    method: string,
    path: string,
    body?: Record<string, unknown>,
  ): Promise<WireResponse> {
    const url = `${c.base}${path}`;
    const nonce = String((await nextMillisecond()) * 100_000);
    const raw = body === undefined ? undefined : JSON.stringify(body);
    return sendRaw(
      method,
      url,
      {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        'Access-Key': c.key,
        'Access-Signature': hmac(c.secret, nonce + url + (raw ?? '')),
        'Access-Nonce': nonce,
      },
      raw,
    );
  }
  return {
    cryptoAccounts: () => call('GET', '/api/v3/crypto-accounts/'),
    transfers: () => call('GET', '/api/v3/transfers'),
    transfer: (body: {
      amount: string;
      account: string;
      target_address: string;
      message?: string;
    }) => call('POST', '/api/v3/transfers', body),
  };
}
