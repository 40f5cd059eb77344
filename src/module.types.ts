import type { Hono, MiddlewareHandler } from 'hono';
import type { Fixtures } from './fixtures/fixture-types.js';
import type { AppEnv, Handlers } from './http/operation.js';
import type { IdentitiesApi } from './identities/identities.api.js';
import type { InvoiceService } from './invoices/invoices.service.js';
import type { LedgerApi } from './ledger/ledger.api.js';
import type { PaymentService } from './payments/payments.service.js';
import type { Services } from './services.js';

/**
 * What a feature module gives the sandbox (docs/design.md#architecture). A module is a plain factory
 * `createXModule(deps)`: it receives the shared infrastructure and the `api` of the modules it uses,
 * and returns this. `src/modules.ts` builds them all, in dependency order, in one place.
 */
export interface SandboxModule<Api = undefined> {
  /** Handlers by operationId of the document. */
  handlers?: Handlers;
  /** Routes outside the document (the hosted page, the dashboard). */
  routes?: (app: Hono<AppEnv>) => void;
  /** Middleware that runs before every operation route. */
  middleware?: MiddlewareHandler<AppEnv>;
  /** Fixture sections this module owns, loaded in the fixture transaction. */
  fixtureSections?: SectionLoader[];
  /**
   * Start background work; return a function that stops it. Work that falls due on the clock is not
   * started here: it is registered with the due-work registry (`services.dueWork`,
   * docs/design.md#the-clock), which runs it before each request, every second and after each clock move.
   */
  start?: () => (() => Promise<void> | void) | void;
  /** What other modules (and the CLI, and tests) may use. */
  api: Api;
}

/**
 * The `api` of the modules most others build on. A module that uses some of them declares which, as
 * `ServicesWith<'ledger' | 'identities'>`, and src/modules.ts hands it exactly those: the infrastructure
 * plus the apis it names, never the whole set.
 */
export interface CoreApis {
  identities: IdentitiesApi;
  ledger: LedgerApi;
  invoices: InvoiceService;
  payments: PaymentService;
}

export type ServicesWith<K extends keyof CoreApis> = Services & Pick<CoreApis, K>;

/** Loaders of extra fixture sections (orders, transfers), registered by the modules that own them. */
export type SectionLoader = (s: ServicesWith<'identities' | 'ledger'>, fx: Fixtures) => void;
