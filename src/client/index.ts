/**
 * The TypeScript client of paysandbox (docs/design.md#around-the-api): works against the sandbox and the real
 * service alike. `import { createMerchantClient, createDeveloperClient } from 'paysandbox/client'`.
 */
export { errorCodesOf, PaySandboxApiError } from './client.errors.js';
export { iterateOffsets, iteratePages } from './client.pages.js';
export {
  buildUrl,
  createTransport,
  retryAfterMs,
  unwrap,
  type ApiResponse,
  type Authorizer,
  type QueryValue,
  type RequestSpec,
  type RetryOptions,
  type Transport,
  type TransportOptions,
} from './client.transport.js';
export type * from './client.types.js';
export type * from './control.types.js';
export type * from './developer.types.js';
export {
  createControlClient,
  type ControlClient,
  type ControlClientOptions,
} from './control.client.js';
export {
  createDeveloperClient,
  type DeveloperClient,
  type DeveloperClientOptions,
  type MoneyCallOptions,
  type OtpProvider,
  type SignedRequestSpec,
} from './developer.client.js';
export {
  createHmacSigner,
  type HeaderSpelling,
  type HmacSigner,
  type HmacSignerOptions,
  type SignOptions,
} from './hmac.signer.js';
export {
  createMerchantClient,
  type InvoiceApiVersion,
  type MerchantAuthScheme,
  type MerchantClient,
  type MerchantClientOptions,
  type VersionOption,
} from './merchant.client.js';
export {
  createNonceSource,
  createSerialQueue,
  type NonceSource,
  type NonceSourceOptions,
  type SerialQueue,
} from './nonce.source.js';
