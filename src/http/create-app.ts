import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import type { WriteBatch } from '../db/unit-of-work.js';
import type { IdentitiesApi } from '../identities/identities.api.js';
import type { Services } from '../services.js';
import type { LoadedSpec, Operation } from '../spec/load.js';
import type { SpecValidators } from '../spec/validators.js';
import { ApiError, notFoundSurface, toApiError } from '../shared/api-error.js';
import { bodyLimitOf, cheapBodyLimit } from './body-limit.js';
import { renderError } from './render-error.js';
import { clientClosed, clientClosedResponse } from './client-closed.js';
import { registerDocs } from './docs.routes.js';
import { registerFavicon } from './favicon.js';
import { indexHandler } from './index.routes.js';
import type { OperationId } from '../spec/operations.generated.js';
import type { AnyHandler, AppEnv, Handlers } from './operation.js';
import { createRequestLog, type RequestLog } from './request-log.js';
import { rawPath } from './request-url.js';
import { operationRunner } from './run-operation.js';

export interface AppParts {
  services: Services;
  /** Who a request's credentials belong to (the identities module's api), for authentication. */
  identities: IdentitiesApi;
  spec: LoadedSpec;
  validators: SpecValidators;
  /** Handlers by operationId, from the feature modules (src/modules.ts). */
  handlers?: Handlers;
  /** Extra middleware, run before every operation route (e.g. injected faults). */
  middleware?: MiddlewareHandler<AppEnv>[];
  /** Extra non-API routes (hosted page, dashboard). */
  routes?: (app: Hono<AppEnv>) => void;
  requestLog?: RequestLog;
}

/** Every path of an operation: as written, and under the legacy prefixes (docs/design.md#wire-conventions). */
export function pathsOf(op: Operation): string[] {
  // Registered without the trailing slash: with `strict: false` Hono matches both spellings.
  const hono = op.path.replace(/\{([^{}]+)\}/g, ':$1').replace(/(.)\/$/, '$1');
  const m = /^\/(v[123])(\/.*)$/.exec(hono);
  if (!m) return [hono];
  const [, version, rest] = m;
  const paths = [hono, `/d/api${rest}`];
  if (version !== 'v1') paths.push(`/api/${version}${rest}`);
  return paths;
}

const notImplemented: AnyHandler = ({ operation }) => {
  throw ApiError.general(
    'not_implemented',
    `${operation.operationId} is not implemented in this version of the sandbox.`,
  );
};

// A path segment that is a dot segment in any spelling (`..`, `%2e%2e`, `.%2E`, `.`…). The URL parser
// behind the Request resolves them, so `/v3/invoices/x/%2e%2e/` would otherwise reach `/v3/invoices/`.
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?=\/|$)/i;

/** Dot segments in the path as sent → 404: no request reaches a route other than the one it names. */
function dotSegmentsRefused(c: Context<AppEnv>): Response | undefined {
  const path = rawPath(c);
  if ((path.includes('.') || path.includes('%')) && DOT_SEGMENT.test(path))
    return renderError(c, ApiError.notFound(), { surface: notFoundSurface(path) });
  return undefined;
}

/** The 500 envelope: the sandbox failed, not the request. */
const serverError = (c: Context<AppEnv>) => renderError(c, ApiError.internal());

/**
 * No response leaves before the group commit that holds its writes (src/db/unit-of-work.ts): a 201 is
 * durable when the client reads it. A response built while that commit then failed becomes a 500.
 */
export function commitBarrier(batch: WriteBatch): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = batch.generation();
    await next();
    const settled = batch.settled();
    if (settled) await settled;
    if (batch.failedGeneration() >= started) {
      c.res = undefined; // replace the response, not merge into it
      c.res = serverError(c);
    }
  };
}

/** The Hono app, built from the document: every operation bound to its handler by operationId. */
export function createApp(parts: AppParts) {
  const { services, spec, validators } = parts;
  const requestLog = parts.requestLog ?? createRequestLog();
  const handlers: Handlers = {
    getHealth: () => ({ status: 200, body: { status: 'ok', version: spec.document.info.version } }),
    getIndex: indexHandler(services.config, spec.document.info.version),
    ...parts.handlers,
  };

  const app = new Hono<AppEnv>({ strict: false });
  const bodyLimit = cheapBodyLimit<AppEnv>(bodyLimitOf, (c) =>
    renderError(c, ApiError.payloadTooLarge(bodyLimitOf(c.req.path))),
  );
  app.use('*', requestLog.middleware(services.clock));
  app.use('*', commitBarrier(services.writeBatch));
  // One layer for the cheap steps of every request (each layer of Hono's chain costs a dispatch and a
  // promise): the error bodies' debug setting, the tenant scope with the due work, dot segments, the
  // body limit. The barrier above renders a failed commit after this has set `debugErrors`.
  // Operation ids by the handler the router holds for them (filled as the operations are registered).
  const operationOfHandler = new Map<unknown, string>();
  const operationAt = (method: string, path: string): string | undefined => {
    const [matched] = app.router.match(method, path) as [Array<[[unknown, unknown], unknown]>];
    for (const [[handler]] of matched) {
      const id = operationOfHandler.get(handler);
      if (id !== undefined) return id;
    }
    return undefined;
  };
  app.use('*', (c, next) => {
    c.set('debugErrors', services.config.debugErrors);
    c.set('operationAt', operationAt);
    return services.tenants.scope((scope) => {
      c.set('tenantScope', scope);
      services.dueWork.runIfDue();
      const refused = dotSegmentsRefused(c);
      return refused ? Promise.resolve(refused) : bodyLimit(c, next);
    });
  });
  app.use(
    '*',
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        renderError(
          c,
          ApiError.general('method_not_allowed', `Method "${c.req.method}" not allowed.`),
          {
            headers: { Allow: methods.join(', ') },
          },
        ),
    }),
  );

  for (const mw of parts.middleware ?? []) app.use('*', mw);

  const registered = new Set<string>();
  for (const op of spec.operations) {
    const run = operationRunner(
      {
        config: services.config,
        identities: parts.identities,
        clock: services.clock,
        tenants: services.tenants,
        validators,
      },
      op,
      (handlers[op.operationId as OperationId] as AnyHandler | undefined) ?? notImplemented,
    );
    operationOfHandler.set(run, op.operationId);
    for (const p of pathsOf(op)) {
      const key = `${op.method} ${p}`;
      if (registered.has(key)) continue; // `/d/api/...` is version-less: the first version wins
      registered.add(key);
      app.on(op.method.toUpperCase(), p, run);
    }
  }
  registerDocs(app, spec, () => services.config.publicUrl);
  registerFavicon(app);
  parts.routes?.(app);

  // Not through the request's error surface: Hono asks this handler first even for a known path with
  // the wrong method, whose 405 must keep its path's API shape.
  app.notFound((c) =>
    renderError(c, ApiError.notFound(), { surface: notFoundSurface(c.req.path) }),
  );
  app.onError((err, c) => {
    // A client that went away mid-body: logged as 499, not as the sandbox's failure.
    if (clientClosed(c, err)) return clientClosedResponse();
    const e = toApiError(err);
    if (e.status === 401 || e.code === 'invalid_nonce_format') c.set('authOutcome', e.code);
    if (e.code === 'internal_error' && e !== err)
      console.error(`[paysandbox] ${c.req.method} ${c.req.path} failed:`, err);
    return renderError(c, e);
  });

  return { app, handlers, requestLog };
}

/** Operation ids that still answer 501 (a test lists them so nothing hides). */
export function unimplementedOperations(spec: LoadedSpec, handlers: Handlers): string[] {
  return spec.operations
    .filter((o) => !handlers[o.operationId as OperationId])
    .map((o) => o.operationId);
}
