import { afterEach } from 'vitest';
import {
  startMerchantReceiver,
  type MerchantReceiver,
  type ReceiverOptions,
} from '../../examples/merchant-callback/server.js';
import type { AppConfig } from '../config.js';
import { createTestApp, type TestApp } from './test-app.js';

/** Test support (imported by *.test.ts only): a test app whose merchant's callbacks reach a live receiver. */

export interface AppWithReceiver {
  t: TestApp;
  receiver: MerchantReceiver;
}

export interface AppWithReceiverOptions {
  /** Over `retrySchedule: [10, 60]`. */
  config?: Partial<AppConfig>;
  receiver?: Partial<ReceiverOptions>;
  /** Start the callback dispatcher (default true); false to deliver by hand. */
  background?: boolean;
  /** The fetch the dispatcher sends callbacks with (default: the global one). */
  fetch?: typeof fetch;
}

/**
 * For the calling test file: a `setup` that makes a test app and an example merchant receiver on a free
 * port, points the first fixture merchant's `callback_url` at it, and closes both after the test.
 */
export function appWithReceiverSetup(): (o?: AppWithReceiverOptions) => Promise<AppWithReceiver> {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return async (o = {}) => {
    const t = createTestApp({ config: { retrySchedule: [10, 60], ...o.config }, fetch: o.fetch });
    const receiver = await startMerchantReceiver({
      token: t.merchant.merchant_api_token,
      port: 0,
      ...o.receiver,
    });
    cleanups.push(
      () => receiver.close(),
      () => t.close(),
    );
    t.services.identities.updateMerchant(t.merchant.id, { callback_url: receiver.url });
    if (o.background !== false) t.sandbox.startBackground();
    return { t, receiver };
  };
}
