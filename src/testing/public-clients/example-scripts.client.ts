import {
  hmacHex as hmac,
  microsecondNonce,
  sendRaw,
  type Credentials,
  type WireResponse,
} from './wire.support.js';

/**
 * The official Python example scripts (HMAC, batch payouts): nonce = `int(time.time() * 1e6)`
 * (microseconds), body `json.dumps(body, separators=(',', ':'))` (no whitespace), message = nonce + URL
 * + that body, headers `ACCESS_SIGNATURE`, `ACCESS_KEY`, `ACCESS_NONCE`, `Content-Type` and `Accept`
 * (JSON), paths as the scripts write them (`/api/v2/sellorder` without a trailing slash).
 */
export function pythonExampleScript(c: Credentials) {
  async function post(path: string, body: Record<string, unknown>): Promise<WireResponse> {
    const url = `${c.base}${path}`;
    const nonce = await microsecondNonce();
    // JSON.stringify writes what json.dumps(separators=(',', ':')) writes for these ASCII bodies.
    const raw = JSON.stringify(body);
    return sendRaw(
      'POST',
      url,
      {
        ACCESS_SIGNATURE: hmac(c.secret, nonce + url + raw),
        ACCESS_KEY: c.key,
        ACCESS_NONCE: nonce,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      raw,
    );
  }
  return {
    /** One row of the batch payout script: a sell order to a bank account (`amount` or `btc_amount`). */
    sellOrder: (body: Record<string, unknown>) => post('/api/v2/sellorder', body),
    cryptoPayment: (body: { account: string; target_address: string; amount: string }) =>
      post('/d/api/crypto-payments/', body),
  };
}

/**
 * The official PHP example (curl): microsecond nonce, the same HMAC message, the `ACCESS_*` headers, and
 * `Accept: application/json` on GET requests only (curl sends no Content-Type without a body).
 */
export function phpExampleScript(c: Credentials) {
  async function get(pathAndQuery: string): Promise<WireResponse> {
    const url = `${c.base}${pathAndQuery}`;
    const nonce = await microsecondNonce();
    return sendRaw('GET', url, {
      ACCESS_SIGNATURE: hmac(c.secret, nonce + url),
      ACCESS_KEY: c.key,
      ACCESS_NONCE: nonce,
      Accept: 'application/json',
    });
  }
  return {
    sellQuote: (query: string) => get(`/api/v2/sellquote?${query}`),
    cryptoAccounts: (currency: string) => get(`/api/v3/crypto-accounts/?currency=${currency}`),
  };
}

/**
 * The official docs' OAuth example (Python requests): `Authorization: Bearer <token>` plus an
 * `ACCESS_NONCE` and no key or signature, the body a dict sent with `data=`, i.e. form-encoded
 * (`application/x-www-form-urlencoded`), to `/v1/sellorder`.
 */
export function pythonOAuthExample(base: string, token: string) {
  return {
    sellOrder: async (body: Record<string, string>): Promise<WireResponse> =>
      sendRaw(
        'POST',
        `${base}/v1/sellorder`,
        {
          Authorization: `Bearer ${token}`,
          ACCESS_NONCE: await microsecondNonce(),
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        new URLSearchParams(body).toString(),
      ),
  };
}
