import type { Context, MiddlewareHandler } from 'hono';
import type { AppConfig } from '../config.js';
import { ApiError } from '../shared/api-error.js';
import { renderError } from '../http/render-error.js';
import type { AppEnv } from '../http/operation.js';
import { headerReader } from '../http/request-url.js';
import { foreignSource, ownOriginText, publicHost, refusedHost } from '../http/same-origin.js';

/**
 * Browser-facing defences of the control API (`/_sandbox`, dashboard included), which without a
 * control token answers anyone who can reach it:
 *
 * - DNS rebinding: a page on `evil.example` whose name is re-pointed at 127.0.0.1 talks to the sandbox
 *   as its own origin, but its requests still carry `Host: evil.example`. Without a control token, a
 *   control request is served only when Host names a loopback address (`localhost`, 127.0.0.0/8, ::1),
 *   the public URL's host, or a host listed in `--allowed-hosts` (`*` turns the check off). With a
 *   token the token is the defence: such a page cannot know it.
 * - Cross-site requests (CSRF): a page may POST a form or a `text/plain` fetch to the sandbox without a
 *   preflight. A request with an `Origin` other than the sandbox's own (its Host, or the public URL) is
 *   refused, `Origin: null` included; and a control write (POST, PUT, PATCH, DELETE) must be
 *   `application/json`, or carry neither body nor Content-Type. A cross-site page can only send JSON
 *   after a CORS preflight, which the sandbox never grants; a bodiless cross-site POST carries an
 *   Origin, which the first rule refuses. Clients that are not browsers (curl, SDKs, CI) send no Origin.
 */
export function controlGuard(
  config: Pick<AppConfig, 'publicUrl' | 'allowedHosts' | 'controlToken' | 'trustProxy'>,
): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const problem = refusal(c, config);
    if (problem) return Promise.resolve(renderError(c, problem));
    return next();
  };
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function refusal(c: Context<AppEnv>, config: Parameters<typeof controlGuard>[0]): ApiError | null {
  const read = headerReader(c);
  const pub = publicHost(config.publicUrl);

  if (config.controlToken === null) {
    const host = refusedHost(c, config);
    if (host !== null) {
      return ApiError.general(
        'host_not_allowed',
        `The control API answers only requests to localhost, a loopback address or ${pub?.hostname ?? 'the public URL'}, not to "${host}" ` +
          '(a protection against DNS rebinding). Add the host with --allowed-hosts (PAYSANDBOX_ALLOWED_HOSTS), or set a control token.',
      );
    }
  }

  const origin = foreignSource(c, config, { referer: false });
  if (origin !== undefined) {
    return ApiError.general(
      'origin_not_allowed',
      `Cross-site request refused: Origin "${origin}" is not this sandbox (${ownOriginText(c, config)}). ` +
        'Call the control API from the dashboard or from a client that sends no Origin.',
    );
  }

  if (WRITES.has(c.req.method)) {
    const type = read('content-type');
    const hasBody =
      read('transfer-encoding') !== undefined || Number(read('content-length') ?? '0') > 0;
    const json =
      type !== undefined && type.split(';')[0]!.trim().toLowerCase() === 'application/json';
    if (!json && (type !== undefined || hasBody)) {
      return ApiError.general(
        'json_required',
        `Control API writes take Content-Type: application/json${type ? `, not "${type}"` : ''} (or no body and no Content-Type).`,
      );
    }
  }
  return null;
}
