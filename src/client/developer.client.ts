import { iterateOffsets, iteratePages } from './client.pages.js';
import {
  createTransport,
  unwrap,
  type ApiResponse,
  type RequestSpec,
  type Transport,
  type TransportOptions,
} from './client.transport.js';
import type { AmountInput, OffsetQuery, PageQuery } from './client.types.js';
import type {
  BuyOrder,
  BuyOrderPage,
  CryptoAccountPage,
  FeeQuote,
  PayoutOutletFeePage,
  PayoutOutletPage,
  SellOrder,
  SellOrderCreateInput,
  SellOrderPage,
  Transfer,
  TransferCreateInput,
  TransferPage,
} from './developer.types.js';
import {
  createHmacSigner,
  type HeaderSpelling,
  type HmacSigner,
  type SignOptions,
} from './hmac.signer.js';

/** A one-time password, or a function that makes a fresh one (e.g. from a TOTP secret). */
export type OtpProvider = string | (() => string | Promise<string>);

export interface DeveloperClientOptions extends TransportOptions {
  /** Either a signer (shared between clients of one key), or the key and secret. */
  signer?: HmacSigner;
  apiKey?: string;
  apiSecret?: string;
  /** First nonce, for keys locked to huge nonces. */
  nonceStart?: string | bigint;
  spelling?: HeaderSpelling;
  /** OTP for the endpoints that move money, when the application is not MFA-whitelisted. */
  otp?: OtpProvider;
}

export interface MoneyCallOptions {
  /** Sent as `Access-OTP`; overrides the client's OTP provider. */
  otp?: string;
}

export interface SignedRequestSpec extends RequestSpec {
  /** Sign with this signer (same key queue) instead of the client's. */
  signer?: HmacSigner;
  sign?: SignOptions;
  /** Send without HMAC headers at all. */
  unsigned?: boolean;
}

export interface DeveloperClient {
  readonly transport: Transport;
  readonly signer: HmacSigner;
  listCryptoAccounts(query?: PageQuery & { currency?: string }): Promise<CryptoAccountPage>;
  createSellOrder(input: SellOrderCreateInput, o?: MoneyCallOptions): Promise<SellOrder>;
  getSellOrder(id: string): Promise<SellOrder>;
  listSellOrders(query?: OffsetQuery): Promise<SellOrderPage>;
  getBuyOrder(id: string): Promise<BuyOrder>;
  listBuyOrders(query?: OffsetQuery): Promise<BuyOrderPage>;
  createTransfer(input: TransferCreateInput, o?: MoneyCallOptions): Promise<Transfer>;
  getTransfer(id: string): Promise<Transfer>;
  listTransfers(query?: PageQuery): Promise<TransferPage>;
  listPayoutOutlets(query?: PageQuery): Promise<PayoutOutletPage>;
  listPartnerPayoutOutletFees(
    query?: PageQuery & { outlet_id?: string },
  ): Promise<PayoutOutletFeePage>;
  quotePartnerPayoutOutletFee(input: { outlet_id: string; amount: AmountInput }): Promise<FeeQuote>;
  iterateTransfers(): AsyncGenerator<Transfer, void, undefined>;
  iterateSellOrders(): AsyncGenerator<SellOrder, void, undefined>;
  iterateBuyOrders(): AsyncGenerator<BuyOrder, void, undefined>;
  /** A signed request (serialized on the key's queue); never throws on an error status. */
  request<T = unknown>(spec: SignedRequestSpec): Promise<ApiResponse<T>>;
}

/**
 * A client of the HMAC-signed developer API. Requests on one key go through one queue, each with a
 * fresh nonce signed over the exact URL and body bytes sent.
 *
 * @example
 * const dev = createDeveloperClient({ baseUrl: 'http://127.0.0.1:7070', apiKey, apiSecret });
 * const { 'crypto-accounts': accounts } = await dev.listCryptoAccounts({ currency: 'PBTC' });
 * const quote = await dev.quotePartnerPayoutOutletFee({ outlet_id: 'bpi', amount: '1000' });
 * console.log(accounts[0]?.balance, quote.fee, quote.total);
 */
export function createDeveloperClient(opts: DeveloperClientOptions): DeveloperClient {
  const transport = createTransport(opts);
  const signer =
    opts.signer ??
    createHmacSigner({
      apiKey: required(opts.apiKey, 'apiKey'),
      apiSecret: required(opts.apiSecret, 'apiSecret'),
      nonceStart: opts.nonceStart,
      spelling: opts.spelling,
    });

  function request<T>(spec: SignedRequestSpec): Promise<ApiResponse<T>> {
    const s = spec.signer ?? signer;
    if (spec.unsigned) return transport.send<T>(spec);
    return s.exclusive(() => transport.send<T>(spec, (url, body) => s.sign(url, body, spec.sign)));
  }

  async function call<T>(spec: RequestSpec): Promise<T> {
    return unwrap<T>(await request<T>(spec));
  }

  async function otpHeader(o: MoneyCallOptions): Promise<Record<string, string>> {
    const otp = o.otp ?? (typeof opts.otp === 'function' ? await opts.otp() : opts.otp);
    return otp ? { 'Access-OTP': otp } : {};
  }

  const id = (v: string) => encodeURIComponent(v);
  const listSellOrders = (q: OffsetQuery = {}) =>
    call<SellOrderPage>({
      method: 'GET',
      path: '/v2/sellorder',
      query: { ...q },
      operationId: 'listSellOrders',
    });
  const listBuyOrders = (q: OffsetQuery = {}) =>
    call<BuyOrderPage>({
      method: 'GET',
      path: '/v2/buyorder',
      query: { ...q },
      operationId: 'listBuyOrders',
    });
  const listTransfers = (q: PageQuery = {}) =>
    call<TransferPage>({
      method: 'GET',
      path: '/v3/transfers',
      query: { ...q },
      operationId: 'listTransfers',
    });

  return {
    transport,
    signer,
    request,
    listCryptoAccounts: (q = {}) =>
      call({
        method: 'GET',
        path: '/v3/crypto-accounts/',
        query: { ...q },
        operationId: 'listCryptoAccounts',
      }),
    async createSellOrder(input, o = {}) {
      const headers = await otpHeader(o);
      return (
        await call<{ order: SellOrder }>({
          method: 'POST',
          path: '/v1/sellorder',
          body: input,
          headers,
          operationId: 'createSellOrder',
        })
      ).order;
    },
    getSellOrder: async (v) =>
      (
        await call<{ order: SellOrder }>({
          method: 'GET',
          path: `/v1/sellorder/${id(v)}`,
          operationId: 'getSellOrder',
        })
      ).order,
    listSellOrders,
    getBuyOrder: async (v) =>
      (
        await call<{ order: BuyOrder }>({
          method: 'GET',
          path: `/v1/buyorder/${id(v)}`,
          operationId: 'getBuyOrder',
        })
      ).order,
    listBuyOrders,
    async createTransfer(input, o = {}) {
      const headers = await otpHeader(o);
      return (
        await call<{ transfer: Transfer }>({
          method: 'POST',
          path: '/v3/transfers/',
          body: input,
          headers,
          operationId: 'createTransfer',
        })
      ).transfer;
    },
    getTransfer: async (v) =>
      (
        await call<{ transfer: Transfer }>({
          method: 'GET',
          path: `/v3/transfers/${id(v)}`,
          operationId: 'getTransfer',
        })
      ).transfer,
    listTransfers,
    listPayoutOutlets: (q = {}) =>
      call({
        method: 'GET',
        path: '/v1/payout-outlets/',
        query: { ...q },
        operationId: 'listPayoutOutlets',
      }),
    listPartnerPayoutOutletFees: (q = {}) =>
      call({
        method: 'GET',
        path: '/v3/partner-payout-outlet-fees',
        query: { ...q },
        operationId: 'listPartnerPayoutOutletFees',
      }),
    quotePartnerPayoutOutletFee: async (input) =>
      (
        await call<{ 'partner-payout-outlet-fee': FeeQuote }>({
          method: 'POST',
          path: '/v3/partner-payout-outlet-fees',
          body: input,
          operationId: 'quotePartnerPayoutOutletFee',
        })
      )['partner-payout-outlet-fee'],
    iterateTransfers: () =>
      iteratePages(
        (page) => listTransfers({ page, per_page: 100 }),
        (p) => p.transfers,
      ),
    iterateSellOrders: () =>
      iterateOffsets(
        (offset) => listSellOrders({ offset, limit: 100 }),
        (p) => p.orders,
      ),
    iterateBuyOrders: () =>
      iterateOffsets(
        (offset) => listBuyOrders({ offset, limit: 100 }),
        (p) => p.orders,
      ),
  };
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new TypeError(`createDeveloperClient: ${name} is required (or pass a signer)`);
  return value;
}
