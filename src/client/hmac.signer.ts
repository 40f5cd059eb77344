import { signRequest } from '../auth/hmac.js';
import {
  createNonceSource,
  createSerialQueue,
  type NonceSource,
  type SerialQueue,
} from './nonce.source.js';

/** `ACCESS_KEY` (older docs, every public client) or `Access-Key` (current docs; survives nginx). */
export type HeaderSpelling = 'underscore' | 'dash';

const NAMES: Record<HeaderSpelling, [string, string, string]> = {
  underscore: ['ACCESS_KEY', 'ACCESS_SIGNATURE', 'ACCESS_NONCE'],
  dash: ['Access-Key', 'Access-Signature', 'Access-Nonce'],
};

export interface HmacSignerOptions {
  apiKey: string;
  apiSecret: string;
  /** Share one source between every signer of a key; default a fresh one. */
  nonces?: NonceSource;
  /** First nonce of a fresh source (keys locked to huge nonces). */
  nonceStart?: string | bigint;
  /** Share one queue between every signer of a key; default a fresh one. */
  queue?: SerialQueue;
  /** Default `dash`: proxies such as nginx drop headers with underscores. */
  spelling?: HeaderSpelling;
}

export interface SignOptions {
  /** Use this nonce instead of the next one (tests of stale or malformed nonces). */
  nonce?: string;
  spelling?: HeaderSpelling;
}

export interface HmacSigner {
  readonly apiKey: string;
  readonly nonces: NonceSource;
  readonly queue: SerialQueue;
  /**
   * The three headers of one request. Message = nonce + full URL (scheme, host, port, path as sent,
   * raw query) + the exact body bytes sent (empty for GET); lowercase hex HMAC-SHA256 with the secret.
   */
  sign(url: string, body?: string | Uint8Array, opts?: SignOptions): Record<string, string>;
  /** Run one request on this key exclusively, so nonces reach the server in the order they were made. */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
  /** The same key, nonce source and queue with another secret (to provoke a signature mismatch). */
  withSecret(apiSecret: string): HmacSigner;
}

/**
 * An HMAC signer for the developer API (docs/design.md#authentication), byte-compatible with the server's verifier.
 *
 * @example
 * const signer = createHmacSigner({ apiKey, apiSecret });
 * const body = JSON.stringify({ outlet_id: 'bpi', amount: '1000' }); // serialize once
 * const url = 'http://127.0.0.1:7070/v3/partner-payout-outlet-fees';
 * const res = await signer.exclusive(() =>
 *   fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...signer.sign(url, body) } }),
 * );
 */
export function createHmacSigner(opts: HmacSignerOptions): HmacSigner {
  const nonces = opts.nonces ?? createNonceSource({ start: opts.nonceStart });
  const queue = opts.queue ?? createSerialQueue();
  const defaultSpelling = opts.spelling ?? 'dash';
  const signer: HmacSigner = {
    apiKey: opts.apiKey,
    nonces,
    queue,
    sign(url, body = '', o = {}) {
      const nonce = o.nonce ?? nonces.next();
      const [k, s, n] = NAMES[o.spelling ?? defaultSpelling];
      return { [k]: opts.apiKey, [s]: signRequest(opts.apiSecret, nonce, url, body), [n]: nonce };
    },
    exclusive: (task) => queue.run(task),
    withSecret: (apiSecret) => createHmacSigner({ ...opts, apiSecret, nonces, queue }),
  };
  return signer;
}
