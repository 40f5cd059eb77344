import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type { TenantScope } from '../clock/tenant-clocks.js';
import type { App, Merchant } from '../identities/identities.api.js';
import type { Operation } from '../spec/load.js';
import type { ErrorSurface } from '../shared/api-error.js';
import type { OperationId, Operations } from '../spec/operations.generated.js';

export type AppEnv = {
  Bindings: Partial<HttpBindings> & { originalUrl?: string };
  Variables: {
    authOutcome: string;
    operationId: string;
    /** The injected fault that touched the request (its id), for the request log. */
    fault?: string;
    /**
     * The operation a method and path would run (before routing; undefined: none): a fault answering in
     * its place still logs the operation it stood in for.
     */
    operationAt?: (method: string, path: string) => string | undefined;
    /** The body an operation read, for the request log. */
    requestBody?: Buffer;
    /** The API of the operation being run: the shape of its error bodies (src/shared/api-error.ts). */
    errorSurface?: ErrorSurface;
    /** `sandbox_debug` in error bodies (off with `--no-debug-errors`). */
    debugErrors?: boolean;
    /** The request's tenant scope: the code after an await re-enters it (see `inRequestScope`). */
    tenantScope?: TenantScope;
  };
};

/** What every handler of operation `K` receives: its path params, coerced query and validated body. */
interface OperationInput<K extends OperationId> {
  c: Context<AppEnv>;
  operation: Operation;
  params: Operations[K]['params'];
  query: Operations[K]['query'];
  /** Parsed JSON body, validated against the document (`{}` when an optional body is absent). */
  body: Operations[K]['body'];
  rawBody: Buffer;
}

/**
 * The caller of operation `K`, from the document's security (`auth` in operations.generated.ts): a
 * merchant operation's handler gets its `Merchant`, a developer operation's its `App` (HMAC or OAuth2),
 * the merchant read that also answers without credentials a `Merchant | undefined`, and a control or
 * public operation neither (docs/design.md#authentication).
 */
export type PrincipalOf<K extends OperationId> = Operations[K]['auth'] extends 'merchant'
  ? { merchant: Merchant }
  : Operations[K]['auth'] extends 'merchant-or-public'
    ? { merchant: Merchant | undefined }
    : Operations[K]['auth'] extends 'hmac'
      ? { app: App }
      : Record<never, never>;

/**
 * What a handler of operation `K` receives: its inputs and its caller, typed from the document
 * (src/spec/operations.generated.ts).
 */
export type OperationContext<K extends OperationId = OperationId> = OperationInput<K> &
  PrincipalOf<K>;

/** The context as the runner builds it, before it knows which operation's handler it will call. */
export type RunnerContext = OperationInput<any> & { merchant?: Merchant; app?: App };

export interface HandlerResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * What a handler of operation `K` may return: one of the statuses the document lists for it, with the
 * body the document gives that status (src/spec/operations.generated.ts). A body of the wrong shape, or
 * a status the document does not list, fails to compile.
 */
export type OperationResult<K extends OperationId> = {
  [S in keyof Operations[K]['responses'] & number]: {
    status: S;
    headers?: Record<string, string>;
  } & (undefined extends Operations[K]['responses'][S]
    ? { body?: undefined }
    : { body: Operations[K]['responses'][S] });
}[keyof Operations[K]['responses'] & number];

/** A handler is bound to an operation of the document by its operationId. */
export type Handler<K extends OperationId = OperationId> = (
  ctx: OperationContext<K>,
) => OperationResult<K> | Response | Promise<OperationResult<K> | Response>;

/** Handlers by operationId: a key the document does not have is a compile error. */
export type Handlers = { [K in OperationId]?: Handler<K> };

/** How the runner calls any handler (it built the context from the document itself). */
export type AnyHandler = (
  ctx: RunnerContext,
) => HandlerResult | Response | Promise<HandlerResult | Response>;

/** A response of `status` (200 unless given) with `body`; its shape is checked against the operation's document. */
export function ok<B>(body: B): { status: 200; body: B };
export function ok<B, const S extends number>(body: B, status: S): { status: S; body: B };
export function ok(body: unknown, status = 200): HandlerResult {
  return { status, body };
}

/**
 * Run synchronous `fn` in the request's tenant scope again: the code after an await of a route that
 * reads or writes an owner's objects (the await left the scope; see src/clock/tenant-clocks.ts).
 */
export function inRequestScope<T>(c: Context<AppEnv>, fn: () => T): T {
  const scope = c.get('tenantScope');
  return scope ? scope.resume(fn) : fn();
}
