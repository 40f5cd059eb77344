import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type { AppRow, MerchantRow } from '../identities/identities.repo.js';
import type { Operation } from '../spec/load.js';

export type AppEnv = {
  Bindings: Partial<HttpBindings> & { originalUrl?: string };
  Variables: { authOutcome: string; operationId: string; /** The body an operation read, for the request log. */ requestBody?: Buffer };
};

export interface OperationContext {
  c: Context<AppEnv>;
  operation: Operation;
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** Parsed JSON body (validated against the document), or undefined. */
  body: any;
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
export type Handler = (ctx: OperationContext) => HandlerResult | Response | Promise<HandlerResult | Response>;

export type Handlers = Partial<Record<string, Handler>>;

export const ok = (body: unknown, status = 200): HandlerResult => ({ status, body });
