import {
  createTransport,
  unwrap,
  type ApiResponse,
  type RequestSpec,
  type Transport,
  type TransportOptions,
} from './client.transport.js';
import type { AmountInput, EventName, Invoice, PageMeta, PageQuery } from './client.types.js';
import type {
  AppAccessToken,
  Clock,
  Delivery,
  DeliveryPage,
  DeliveryQuery,
  PayInvoiceInput,
  PaymentOutcome,
  SandboxAccount,
  SandboxApp,
  SandboxMerchant,
  SandboxMerchantInput,
  Workspace,
} from './control.types.js';

export interface ControlClientOptions extends TransportOptions {
  /** `X-Sandbox-Token`, when the sandbox runs with SANDBOX_CONTROL_TOKEN. */
  controlToken?: string;
}

export interface ControlClient {
  readonly transport: Transport;
  /** True when the target has the control API (`GET /_sandbox/clock` is anything but 404). */
  available(): Promise<boolean>;
  getClock(): Promise<Clock>;
  advanceClock(seconds: number): Promise<Clock>;
  resetClock(): Promise<Clock>;
  /** A workspace's own clock (docs/design.md#the-clock): its time and offset; 404 when unknown or deleted. */
  getWorkspaceClock(workspaceId: string): Promise<Clock>;
  /** Move one workspace's clock forward; its due work runs at once, nobody else's time moves. */
  advanceWorkspaceClock(workspaceId: string, seconds: number): Promise<Clock>;
  resetWorkspaceClock(workspaceId: string): Promise<Clock>;
  createWorkspace(input?: { ttl_seconds?: number }): Promise<Workspace>;
  deleteWorkspace(id: string): Promise<void>;
  listMerchants(query?: PageQuery): Promise<{ merchants: SandboxMerchant[]; meta: PageMeta }>;
  updateMerchant(id: string, input: SandboxMerchantInput): Promise<SandboxMerchant>;
  listApps(query?: PageQuery): Promise<{ apps: SandboxApp[]; meta: PageMeta }>;
  createApp(input?: {
    name?: string;
    mfa_whitelisted?: boolean;
    balance?: AmountInput;
    business_account?: boolean;
    daily_buy_limit?: AmountInput | null;
    /** Make it inside this workspace (its tenant and clock) instead of the base data. */
    workspace_id?: string;
  }): Promise<SandboxApp>;
  resetAppNonce(apiKey: string): Promise<SandboxApp>;
  getAppOtp(apiKey: string): Promise<{ otp: string; expires_in_seconds: number }>;
  /** Issue an OAuth2 access token for the app (default scope `read write`, 3600 s). */
  createAppToken(
    apiKey: string,
    input?: { scope?: string; expires_in_seconds?: number },
  ): Promise<AppAccessToken>;
  listAppTokens(apiKey: string): Promise<AppAccessToken[]>;
  revokeAppToken(apiKey: string, accessToken: string): Promise<void>;
  getAccount(id: string): Promise<SandboxAccount>;
  fundAccount(id: string, amount: AmountInput): Promise<SandboxAccount>;
  payInvoice(invoiceId: string, input: PayInvoiceInput): Promise<PaymentOutcome>;
  confirmCounterPayment(input: {
    reference_number: string;
    amount?: AmountInput;
  }): Promise<PaymentOutcome>;
  expireInvoice(invoiceId: string): Promise<Invoice>;
  cancelInvoice(invoiceId: string): Promise<Invoice>;
  trigger(input: {
    event: EventName;
    invoice_id?: string;
  }): Promise<{ event: EventName; invoice: Invoice }>;
  listDeliveries(query?: DeliveryQuery): Promise<DeliveryPage>;
  getDelivery(id: string): Promise<Delivery>;
  redeliver(id: string): Promise<Delivery>;
  /** A control request; never throws on an error status. */
  request<T = unknown>(spec: RequestSpec): Promise<ApiResponse<T>>;
}

/**
 * A client of the sandbox control API (`/_sandbox`): drive invoices, the clock, callbacks and
 * identities from tests. Does not exist on the real service.
 *
 * @example
 * const control = createControlClient({ baseUrl: 'http://127.0.0.1:7070' });
 * const { merchant, app, customer } = await control.createWorkspace();
 * await control.payInvoice(invoice.id, { collector: 'coins_peso_wallet', customer: customer.email });
 * await control.advanceClock(16 * 60); // pending invoices of a 15-minute lifetime expire
 */
export function createControlClient(opts: ControlClientOptions): ControlClient {
  const transport = createTransport(opts);
  const auth: Record<string, string> = opts.controlToken
    ? { 'X-Sandbox-Token': opts.controlToken }
    : {};
  const request = <T>(spec: RequestSpec) =>
    transport.send<T>({ ...spec, headers: { ...auth, ...spec.headers } });
  const call = async <T>(spec: RequestSpec): Promise<T> => unwrap<T>(await request<T>(spec));
  const id = (v: string) => encodeURIComponent(v);
  const post = <T>(path: string, operationId: string, body?: unknown) =>
    call<T>({ method: 'POST', path, body, operationId });

  return {
    transport,
    request,
    async available() {
      const res = await request({
        method: 'GET',
        path: '/_sandbox/clock',
        operationId: 'getClock',
      });
      return res.status !== 404;
    },
    getClock: () => call({ method: 'GET', path: '/_sandbox/clock', operationId: 'getClock' }),
    advanceClock: (seconds) => post('/_sandbox/clock/advance', 'advanceClock', { seconds }),
    resetClock: () => post('/_sandbox/clock/reset', 'resetClock'),
    getWorkspaceClock: (ws) =>
      call({
        method: 'GET',
        path: `/_sandbox/workspaces/${id(ws)}/clock`,
        operationId: 'getWorkspaceClock',
      }),
    advanceWorkspaceClock: (ws, seconds) =>
      post(`/_sandbox/workspaces/${id(ws)}/clock/advance`, 'advanceWorkspaceClock', { seconds }),
    resetWorkspaceClock: (ws) =>
      post(`/_sandbox/workspaces/${id(ws)}/clock/reset`, 'resetWorkspaceClock'),
    createWorkspace: async (input = {}) =>
      (await post<{ workspace: Workspace }>('/_sandbox/workspaces', 'createWorkspace', input))
        .workspace,
    async deleteWorkspace(v) {
      await call({
        method: 'DELETE',
        path: `/_sandbox/workspaces/${id(v)}`,
        operationId: 'deleteWorkspace',
      });
    },
    listMerchants: (q = {}) =>
      call({
        method: 'GET',
        path: '/_sandbox/merchants',
        query: { ...q },
        operationId: 'listMerchants',
      }),
    updateMerchant: async (v, input) =>
      (
        await call<{ merchant: SandboxMerchant }>({
          method: 'PATCH',
          path: `/_sandbox/merchants/${id(v)}`,
          body: input,
          operationId: 'updateMerchant',
        })
      ).merchant,
    listApps: (q = {}) =>
      call({ method: 'GET', path: '/_sandbox/apps', query: { ...q }, operationId: 'listApps' }),
    createApp: async (input = {}) =>
      (await post<{ app: SandboxApp }>('/_sandbox/apps', 'createApp', input)).app,
    resetAppNonce: async (key) =>
      (await post<{ app: SandboxApp }>(`/_sandbox/apps/${id(key)}/nonce/reset`, 'resetAppNonce'))
        .app,
    getAppOtp: (key) =>
      call({ method: 'GET', path: `/_sandbox/apps/${id(key)}/otp`, operationId: 'getAppOtp' }),
    createAppToken: (key, input = {}) =>
      post(`/_sandbox/apps/${id(key)}/tokens`, 'createAppToken', input),
    listAppTokens: async (key) =>
      (
        await call<{ tokens: AppAccessToken[] }>({
          method: 'GET',
          path: `/_sandbox/apps/${id(key)}/tokens`,
          operationId: 'listAppTokens',
        })
      ).tokens,
    async revokeAppToken(key, token) {
      await call({
        method: 'DELETE',
        path: `/_sandbox/apps/${id(key)}/tokens/${id(token)}`,
        operationId: 'revokeAppToken',
      });
    },
    getAccount: async (v) =>
      (
        await call<{ account: SandboxAccount }>({
          method: 'GET',
          path: `/_sandbox/accounts/${id(v)}`,
          operationId: 'getAccount',
        })
      ).account,
    fundAccount: async (v, amount) =>
      (
        await post<{ account: SandboxAccount }>(`/_sandbox/accounts/${id(v)}/fund`, 'fundAccount', {
          amount,
        })
      ).account,
    payInvoice: (v, input) => post(`/_sandbox/invoices/${id(v)}/payments`, 'payInvoice', input),
    confirmCounterPayment: (input) =>
      post('/_sandbox/otc/payments', 'confirmCounterPayment', input),
    expireInvoice: async (v) =>
      (await post<{ invoice: Invoice }>(`/_sandbox/invoices/${id(v)}/expire`, 'expireInvoice'))
        .invoice,
    cancelInvoice: async (v) =>
      (await post<{ invoice: Invoice }>(`/_sandbox/invoices/${id(v)}/cancel`, 'cancelInvoice'))
        .invoice,
    trigger: (input) => post('/_sandbox/trigger', 'triggerEvent', input),
    listDeliveries: (q = {}) =>
      call({
        method: 'GET',
        path: '/_sandbox/deliveries',
        query: { ...q },
        operationId: 'listDeliveries',
      }),
    getDelivery: async (v) =>
      (
        await call<{ delivery: Delivery }>({
          method: 'GET',
          path: `/_sandbox/deliveries/${id(v)}`,
          operationId: 'getDelivery',
        })
      ).delivery,
    redeliver: async (v) =>
      (
        await post<{ delivery: Delivery }>(
          `/_sandbox/deliveries/${id(v)}/redeliver`,
          'redeliverDelivery',
        )
      ).delivery,
  };
}
