import type { SandboxModule } from '../module.types.js';
import type { ServicesWith } from '../module.types.js';
import type { TransferService } from '../transfers/transfers.service.js';
import { createCryptoExchangeService } from './crypto-exchanges.service.js';
import { createCryptoPaymentService } from './crypto-payments.service.js';
import { createPaymentRequestService } from './payment-requests.service.js';
import { createCryptoRouteService } from './crypto-routes.service.js';
import {
  createCryptoExchangeRepository,
  createCryptoPaymentRepository,
  createCryptoRouteRepository,
  createPaymentRequestRepository,
} from './wallet.repo.js';
import { walletHandlers } from './wallet.routes.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities' | 'ledger'>;

/** Wallet operations: conversions, crypto payments and payment requests (docs/fidelity.md lists their sources). */
export function createWalletModule(
  s: ModuleServices,
  transfers: Pick<TransferService, 'prepareSend'>,
) {
  const common = {
    ledger: s.ledger,
    unitOfWork: s.unitOfWork,
    clock: s.clock,
    tenants: s.tenants,
    dueWork: s.dueWork,
    ids: s.ids,
    identities: s.identities,
  };
  const exchangeRepo = createCryptoExchangeRepository(s.db);
  const paymentRepo = createCryptoPaymentRepository(s.db);
  // What pending conversions and crypto payments will credit a wallet counts against its room
  // (docs/design.md#money-bounds).
  s.ledger.countIncoming(exchangeRepo.pendingTo);
  s.ledger.countIncoming(paymentRepo.pendingTo);
  const exchanges = createCryptoExchangeService({
    ...common,
    exchanges: exchangeRepo,
    settleSeconds: () => s.config.transferSettleSeconds,
  });
  const payments = createCryptoPaymentService({
    ...common,
    payments: paymentRepo,
    transfers,
    settleSeconds: () => s.config.transferSettleSeconds,
  });
  const requests = createPaymentRequestService({
    ...common,
    requests: createPaymentRequestRepository(s.db),
    publicUrl: () => s.config.publicUrl,
  });
  const routes = createCryptoRouteService({
    routes: createCryptoRouteRepository(s.db),
    clock: s.clock,
    ids: s.ids,
  });
  const api = { exchanges, payments, requests, routes };
  // Conversions and payments settle and requests expire as soon as their owner's clock says so.
  for (const job of [exchanges.dueJob, payments.dueJob, requests.dueJob]) s.dueWork.register(job);
  return {
    handlers: walletHandlers(api, () => s.config.publicUrl),
    api,
  } satisfies SandboxModule<typeof api>;
}
