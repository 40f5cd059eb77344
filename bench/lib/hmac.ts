import { createHmac } from 'node:crypto';

/** An HMAC key of the developer API with its own strictly increasing nonce (one key per connection). */
export interface SigningKey {
  apiKey: string;
  apiSecret: string;
  nonce: number;
}

export function signingKey(apiKey: string, apiSecret: string): SigningKey {
  // Microseconds since the epoch: above anything a fixture or an earlier run may have used.
  return { apiKey, apiSecret, nonce: Date.now() * 1000 };
}

/** Headers of one signed request (docs/design.md#authentication): HMAC-SHA256(secret, nonce + full URL + raw body), hex. */
export function signedHeaders(
  key: SigningKey,
  fullUrl: string,
  body: string,
): Record<string, string> {
  const nonce = String(++key.nonce);
  const signature = createHmac('sha256', key.apiSecret)
    .update(nonce)
    .update(fullUrl)
    .update(body)
    .digest('hex');
  return { ACCESS_KEY: key.apiKey, ACCESS_NONCE: nonce, ACCESS_SIGNATURE: signature };
}
