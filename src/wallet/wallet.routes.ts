import { ok, type Handlers } from '../http/operation.js';
import type { CryptoExchangeService } from './crypto-exchanges.service.js';
import { cryptoRoutes } from './wallet.view.js';
import type { CryptoPaymentService } from './crypto-payments.service.js';
import type { CryptoRouteService } from './crypto-routes.service.js';
import { marketsApi } from './markets.js';
import { paymentRequestPageUrl, type PaymentRequestService } from './payment-requests.service.js';

/**
 * The wallet operations of the developer API (HMAC; scoped to the signing application's owner) and the
 * control calls that settle or fail a conversion or a crypto payment and pay, decline or expire a
 * payment request. A created request's payer page is named in `X-Sandbox-Payment-Url`, beside a body
 * that keeps the real shape.
 */
export function walletHandlers(
  s: {
    exchanges: CryptoExchangeService;
    payments: CryptoPaymentService;
    requests: PaymentRequestService;
    routes: CryptoRouteService;
  },
  publicUrl: () => string,
): Handlers {
  return {
    createCryptoExchange: ({ app, body }) =>
      ok({ 'crypto-exchange': s.exchanges.create(app, body) }, 201),
    setCryptoExchangeStatus: ({ params, body }) =>
      ok({ 'crypto-exchange': s.exchanges.setStatus(params.crypto_exchange_id, body.status) }),
    listCryptoExchanges: ({ app, query }) => ok(s.exchanges.list(app.owner_id, query)),
    getCryptoExchange: ({ app, params, query }) =>
      ok({ 'crypto-exchange': s.exchanges.get(app.owner_id, params.crypto_exchange_id) }),
    listCryptoRoutes: ({ app }) =>
      ok({ 'crypto-routes': [...cryptoRoutes(), ...s.routes.list(app.owner_id)] }),
    createCryptoRoute: ({ app, body }) => ok(s.routes.create(app, body), 201),
    deleteCryptoRoute: ({ app, params }) =>
      ok(s.routes.remove(app.owner_id, params.crypto_route_id)),
    createCryptoPayment: ({ app, body, c }) =>
      ok({ 'crypto-payment': s.payments.create(app, body, c.req.header('access-otp')) }, 201),
    listCryptoPayments: ({ app, query }) => ok(s.payments.list(app.owner_id, query)),
    getCryptoPayment: ({ app, params, query }) =>
      ok({ 'crypto-payment': s.payments.get(app.owner_id, params.crypto_payment_id) }),
    setCryptoPaymentStatus: ({ params, body }) =>
      ok({ 'crypto-payment': s.payments.setStatus(params.crypto_payment_id, body.status) }),
    createPaymentRequest: ({ app, body }) => {
      const request = s.requests.create(app, body);
      return {
        status: 201,
        body: { 'payment-request': request },
        headers: { 'X-Sandbox-Payment-Url': paymentRequestPageUrl(publicUrl(), request.id) },
      };
    },
    listPaymentRequests: ({ app, query }) => ok(s.requests.list(app.owner_id, query)),
    getPaymentRequests: ({ app, query }) => ok(s.requests.list(app.owner_id, query)),
    getPaymentRequest: ({ app, params, query }) =>
      ok({ 'payment-request': s.requests.get(app.owner_id, params.payment_request_id) }),
    getPaymentRequestsItem: ({ app, params, query }) =>
      ok({ 'payment-request': s.requests.get(app.owner_id, params.payment_request_id) }),
    cancelPaymentRequest: ({ app, params }) =>
      ok({ 'payment-request': s.requests.cancel(app.owner_id, params.payment_request_id) }),
    listMarketsV1: () => ok(marketsApi.listV1()),
    getMarketV1: ({ params }) => ok(marketsApi.getV1(params.symbol)),
    listMarketsV2: () => ok(marketsApi.listV2()),
    setPaymentRequestStatus: ({ params, body }) =>
      ok({ 'payment-request': s.requests.setStatus(params.payment_request_id, body.status) }),
  };
}
