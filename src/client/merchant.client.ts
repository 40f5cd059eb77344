import { iteratePages } from './client.pages.js';
import {
  createTransport,
  unwrap,
  type ApiResponse,
  type RequestSpec,
  type Transport,
  type TransportOptions,
} from './client.transport.js';
import type { Invoice, InvoiceCreateInput, InvoiceListQuery, InvoicePage } from './client.types.js';

export type MerchantAuthScheme = 'Token' | 'Bearer';
export type InvoiceApiVersion = 'v1' | 'v3';

export interface MerchantClientOptions extends Omit<TransportOptions, 'headers'> {
  /** The merchant API token (or, with `Bearer`, the v3 bearer token). */
  token: string;
  /** `Token` (v1 form, default) or `Bearer` (v3 form); both work on both paths. */
  scheme?: MerchantAuthScheme;
  /** Paths of create and retrieve: `/v1/invoices/` (default) or `/v3/invoices/`. */
  version?: InvoiceApiVersion;
  headers?: Record<string, string>;
}

export interface VersionOption {
  version?: InvoiceApiVersion;
}

export interface MerchantClient {
  readonly transport: Transport;
  createInvoice(input: InvoiceCreateInput, o?: VersionOption): Promise<Invoice>;
  getInvoice(id: string, o?: VersionOption): Promise<Invoice>;
  listInvoices(query?: InvoiceListQuery): Promise<InvoicePage>;
  /** Every invoice matching the filters, newest first, across all pages. */
  iterateInvoices(query?: Omit<InvoiceListQuery, 'page'>): AsyncGenerator<Invoice, void, undefined>;
  /** A request with this merchant's Authorization header; never throws on an error status. */
  request<T = unknown>(spec: RequestSpec): Promise<ApiResponse<T>>;
}

/**
 * A client of the merchant invoice API (`Authorization: Token <merchant_api_token>` or `Bearer <token>`).
 *
 * @example
 * const merchant = createMerchantClient({ baseUrl: 'http://127.0.0.1:7070', token: process.env.MERCHANT_TOKEN! });
 * const invoice = await merchant.createInvoice({ amount: 20, currency: 'PHP', external_transaction_id: 'order-1001' });
 * console.log(invoice.payment_url, invoice.amount); // …/payment/invoice/<id>  "20.00000000"
 * for await (const inv of merchant.iterateInvoices({ status: 'fully_paid' })) console.log(inv.id);
 */
export function createMerchantClient(opts: MerchantClientOptions): MerchantClient {
  const transport = createTransport(opts);
  const authorization = `${opts.scheme ?? 'Token'} ${opts.token}`;
  const defaultVersion = opts.version ?? 'v1';

  const request = <T>(spec: RequestSpec) =>
    transport.send<T>({ ...spec, headers: { authorization, ...opts.headers, ...spec.headers } });

  async function listInvoices(query: InvoiceListQuery = {}): Promise<InvoicePage> {
    return unwrap<InvoicePage>(
      await request({
        method: 'GET',
        path: '/v3/invoices/',
        query: { ...query },
        operationId: 'listInvoices',
      }),
    );
  }

  return {
    transport,
    request,
    async createInvoice(input, o = {}) {
      const v = o.version ?? defaultVersion;
      const res = await request({
        method: 'POST',
        path: `/${v}/invoices/`,
        body: input,
        operationId: v === 'v1' ? 'createInvoiceV1' : 'createInvoiceV3',
      });
      return unwrap<{ invoice: Invoice }>(res).invoice;
    },
    async getInvoice(id, o = {}) {
      const v = o.version ?? defaultVersion;
      const path =
        v === 'v1'
          ? `/v1/invoices/${encodeURIComponent(id)}`
          : `/v3/invoices/${encodeURIComponent(id)}/`;
      const res = await request({
        method: 'GET',
        path,
        operationId: v === 'v1' ? 'getInvoiceV1' : 'getInvoiceV3',
      });
      return unwrap<{ invoice: Invoice }>(res).invoice;
    },
    listInvoices,
    iterateInvoices(query = {}) {
      return iteratePages(
        (page) => listInvoices({ per_page: 100, ...query, page }),
        (p) => p.invoices,
      );
    },
  };
}
