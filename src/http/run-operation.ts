import type { Context } from 'hono';
import {
  authenticateBearerApp,
  authenticateControl,
  authenticateHmac,
  authenticateMerchant,
  developerBearer,
} from '../auth/authenticate.js';
import type { AppConfig } from '../config.js';
import type { IdentitiesApi } from '../identities/identities.api.js';
import type { TenantClocks } from '../clock/tenant-clocks.js';
import type { Clock } from '../shared/clock.js';
import type { Operation } from '../spec/load.js';
import { coerceQuery, toFieldErrors, type SpecValidators } from '../spec/validators.js';
import { ApiError, surfaceOfTags } from '../shared/api-error.js';
import { MAX_BODY_BYTES, readBody, readBodilessMethodBody } from './body-limit.js';
import { coerceCharFields, isFormBody, parseFormBody } from './form-body.js';
import { numberSourceOf, parseJsonBody } from '../shared/json-body.js';
import { jsonTextOf } from './json-text.js';
import { inRequestScope, type AnyHandler, type AppEnv, type RunnerContext } from './operation.js';
import { headerReader, requestUrl } from './request-url.js';

const EMPTY = Buffer.alloc(0);

export interface RunnerDeps {
  config: AppConfig;
  identities: IdentitiesApi;
  /** The clock, on which OAuth2 access tokens expire (each on its app's tenant clock). */
  clock: Clock;
  /** Whose clock the request is on: the authenticated merchant's or app's workspace. */
  tenants: Pick<TenantClocks, 'enter'>;
  validators: SpecValidators;
}

/**
 * One request through one operation: authenticate (before anything else, like the real service),
 * parse and validate query and body against the document, call the handler, render the result.
 */
export function operationRunner(deps: RunnerDeps, op: Operation, handler: AnyHandler) {
  const v = deps.validators.forOperation(op.operationId);
  const readsBody = op.method !== 'get' && op.method !== 'delete';
  const surface = surfaceOfTags(op.tags);

  return async (c: Context<AppEnv>): Promise<Response> => {
    c.set('operationId', op.operationId);
    c.set('errorSurface', surface);
    const rawBody = readsBody
      ? await readBody(c)
      : op.auth === 'hmac'
        ? ((await readBodilessMethodBody(c, MAX_BODY_BYTES, ApiError.payloadTooLarge)) ?? EMPTY)
        : EMPTY;
    if (rawBody.length) c.set('requestBody', rawBody);
    // The rest is synchronous up to an async handler's own awaits: in the request's tenant scope again.
    return inRequestScope(c, () => run(c, rawBody));
  };

  function run(c: Context<AppEnv>, rawBody: Buffer): Response | Promise<Response> {
    // Typed per operation for its handler; here the document's own checks below stand behind the values,
    // and the switch below sets the principal the operation's security names (PrincipalOf).
    const ctx: RunnerContext = {
      c,
      operation: op,
      params: c.req.param() as Record<string, string>,
      query: {},
      body: undefined,
      rawBody,
    };

    // The body is parsed before authentication ends (its error thrown after): a signed request with a
    // body that cannot be parsed is refused before its nonce is used up.
    let parsed: unknown;
    let bodyError: ApiError | undefined;
    if (op.hasBody && rawBody.length > 0) {
      try {
        // A developer write also takes a form-encoded body (signed as sent, like JSON); the merchant and
        // control APIs take JSON only.
        const form = op.auth === 'hmac' && isFormBody(c.req.header('content-type'));
        parsed = form
          ? parseFormBody(rawBody.toString('utf8'), op.bodyTypes)
          : parseJsonBody(rawBody.toString('utf8'));
        // The developer API is Django REST framework: its string fields take a JSON number as its text.
        if (op.auth === 'hmac' && !form) coerceCharFields(parsed, op.bodyTypes, numberSourceOf);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        bodyError = err;
      }
    }
    const refuseBadBody = () => {
      if (bodyError) throw bodyError;
    };

    const header = headerReader(c);
    switch (op.auth) {
      case 'merchant-or-public':
      case 'merchant':
        // No Authorization header at all is the public read where the operation allows one; a header
        // that is sent must be valid.
        if (op.auth === 'merchant-or-public' && header('authorization') === undefined) {
          c.set('authOutcome', 'none');
          break;
        }
        ctx.merchant = authenticateMerchant(deps.identities, header('authorization'));
        deps.tenants.enter(ctx.merchant.workspace_id);
        c.set('authOutcome', `merchant:${ctx.merchant.id}`);
        break;
      case 'hmac': {
        // An OAuth2 access token of an app stands in for its signature (HMAC wins when both are sent).
        const bearer = developerBearer(header);
        if (bearer !== undefined) {
          ctx.app = authenticateBearerApp(deps.identities, bearer, deps.clock.now());
          deps.tenants.enter(ctx.app.workspace_id);
          c.set('authOutcome', `bearer:${ctx.app.api_key}`);
          break;
        }
        ctx.app = authenticateHmac(
          deps.identities,
          header,
          requestUrl(c, deps.config.trustProxy, header),
          rawBody,
          {
            debugErrors: deps.config.debugErrors,
            beforeNonce: refuseBadBody,
          },
        );
        deps.tenants.enter(ctx.app.workspace_id);
        c.set('authOutcome', `hmac:${ctx.app.api_key}`);
        break;
      }
      case 'control':
        authenticateControl(deps.config.controlToken, header('x-sandbox-token'));
        c.set('authOutcome', 'control');
        break;
      default:
        c.set('authOutcome', 'none');
    }

    if (v.query) {
      const { values, errors } = coerceQuery(op, c.req.query());
      const schemaErrors = v.query(values) ? {} : toFieldErrors(v.query.errors);
      const all = { ...schemaErrors, ...errors };
      if (Object.keys(all).length) throw new ApiError('validation_error', all);
      ctx.query = values;
    }

    if (op.hasBody) {
      if (rawBody.length === 0) {
        if (op.bodyRequired) throw ApiError.general('validation_error', 'No data provided.');
        ctx.body = {};
      } else {
        refuseBadBody();
        ctx.body = parsed;
      }
      if (v.body && !v.body(ctx.body))
        throw new ApiError('validation_error', toFieldErrors(v.body.errors, op.fullFieldPaths));
    }

    const result = handler(ctx);
    return result instanceof Promise
      ? result.then((r) => inRequestScope(c, () => render(c, r)))
      : render(c, result);
  }
}

function render(c: Context<AppEnv>, result: Awaited<ReturnType<AnyHandler>>): Response {
  if (result instanceof Response) return result;
  if (result.headers) for (const [k, val] of Object.entries(result.headers)) c.header(k, val);
  if (result.status === 204 || result.body === undefined) return c.body(null, result.status as 204);
  const text = jsonTextOf(result.body);
  // The Content-Type `c.json` gives; a fresh object per response, as `c.json` makes one.
  if (text !== undefined)
    return c.body(text, result.status as 200, { 'Content-Type': 'application/json' });
  return c.json(result.body as object, result.status as 200);
}
