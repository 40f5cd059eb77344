import { sql as initial } from './001-initial.js';
import { sql as referenceCollector } from './002-reference-collector.js';
import { sql as callbacks } from './003-callbacks.js';
import { sql as orders } from './004-orders.js';
import { sql as timeOrderedDeliveryIds } from './005-time-ordered-delivery-ids.js';
import { sql as deliveriesByOutbox } from './006-deliveries-written-by-the-outbox.js';
import { sql as feePercentAsFraction } from './007-fee-percent-as-fraction.js';
import { sql as pendingTransfers } from './008-pending-transfers.js';
import { sql as buyOrderLifecycle } from './009-buy-order-lifecycle.js';
import { sql as coinsTransferTarget } from './010-coins-transfer-target.js';
import { sql as appAccessTokens } from './015-app-access-tokens.js';
import { sql as accountTotalReceived } from './016-account-total-received.js';
import { sql as walletOperations } from './013-wallet-operations.js';
import { sql as pendingCryptoExchangesIndex } from './017-pending-crypto-exchanges-index.js';
import { sql as paymentRequestCanceled } from './018-payment-request-canceled.js';
import { sql as snapshots } from './019-snapshots.js';
import { sql as appTokenExpiredAt } from './020-app-token-expired-at.js';
import { sql as ledgerPerCurrency } from './021-ledger-per-currency.js';
import { sql as workspaceClock } from './023-workspace-clock.js';
import { sql as appAccountLimits } from './024-app-account-limits.js';
import { sql as cryptoRoutes } from './026-crypto-routes.js';
import { sql as incomingToAccountIndexes } from './027-incoming-to-account-indexes.js';

/**
 * Numbered migrations, applied in version order; `schema_migrations` records each one applied, so a
 * migration numbered below one already applied still runs (see `migrate` in ../open.ts).
 */
export const migrations: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'reference-collector', sql: referenceCollector },
  { version: 3, name: 'callbacks', sql: callbacks },
  { version: 4, name: 'orders', sql: orders },
  { version: 5, name: 'time-ordered-delivery-ids', sql: timeOrderedDeliveryIds },
  { version: 6, name: 'deliveries-written-by-the-outbox', sql: deliveriesByOutbox },
  { version: 7, name: 'fee-percent-as-fraction', sql: feePercentAsFraction },
  { version: 8, name: 'pending-transfers', sql: pendingTransfers },
  { version: 9, name: 'buy-order-lifecycle', sql: buyOrderLifecycle },
  { version: 10, name: 'coins-transfer-target', sql: coinsTransferTarget },
  { version: 15, name: 'app-access-tokens', sql: appAccessTokens },
  { version: 16, name: 'account-total-received', sql: accountTotalReceived },
  { version: 13, name: 'wallet-operations', sql: walletOperations },
  { version: 17, name: 'pending-crypto-exchanges-index', sql: pendingCryptoExchangesIndex },
  { version: 18, name: 'payment-request-canceled', sql: paymentRequestCanceled },
  { version: 19, name: 'snapshots', sql: snapshots },
  { version: 20, name: 'app-token-expired-at', sql: appTokenExpiredAt },
  { version: 21, name: 'ledger-per-currency', sql: ledgerPerCurrency },
  { version: 23, name: 'workspace-clock', sql: workspaceClock },
  { version: 24, name: 'app-account-limits', sql: appAccountLimits },
  { version: 26, name: 'crypto-routes', sql: cryptoRoutes },
  { version: 27, name: 'incoming-to-account-indexes', sql: incomingToAccountIndexes },
].sort((a, b) => a.version - b.version);
