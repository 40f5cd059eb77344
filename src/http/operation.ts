import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type { AppRow, MerchantRow } from '../identities/identities.repo.js';
import type { Operation } from '../spec/load.js';
import type { OperationId, Operations } from '../spec/operations.generated.js';

export type AppEnv = {
  Bindings: Partial<HttpBindings> & { originalUrl?: string };
  Variables: { authOutcome: string; operationId: string; /** The body an operation read, for the request log. */ requestBody?: Buffer };
};

/**
 * What a handler of operation `K` receives: its path params, coerced query and validated body, typed
 * from the document (src/spec/operations.generated.ts).
 */
export interface OperationContext<K extends OperationId = OperationId> {
  c: Context<AppEnv>;
  operation: Operation;
  params: Operations[K]['params'];
  query: Operations[K]['query'];
  /** Parsed JSON body, validated against the document (`{}` when an optional body is absent). */
  body: Operations[K]['body'];
  rawBody: Buffer;
  merchant?: MerchantRow;
  app?: AppRow;
}

export interface HandlerResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A handler is bound to an operation of the document by its operationId. */
export type Handler<K extends OperationId = OperationId> = (ctx: OperationContext<K>) => HandlerResult | Response | Promise<HandlerResult | Response>;

/** Handlers by operationId: a key the document does not have is a compile error. */
export type Handlers = { [K in OperationId]?: Handler<K> };

/** How the runner calls any handler (it built the context from the document itself). */
export type AnyHandler = (ctx: OperationContext<any>) => HandlerResult | Response | Promise<HandlerResult | Response>;

export const ok = (body: unknown, status = 200): HandlerResult => ({ status, body });
