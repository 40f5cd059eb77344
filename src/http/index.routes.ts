import type { AppConfig } from '../config.js';
import type { Handler } from './operation.js';
import { headerReader, requestUrl } from './request-url.js';

/** Where the QA dashboard lives; a browser opening the bare base URL lands there. */
export const DASHBOARD_PATH = '/_sandbox/';

/**
 * `GET /`: somewhere useful instead of a 404. A browser (Accept: text/html) goes to the dashboard;
 * curl, scripts and API clients get the links, absolute on the host and port they used — so in Docker
 * or behind a proxy (with --trust-proxy) they are links that work from where the request came.
 */
export function indexHandler(
  config: Pick<AppConfig, 'trustProxy'>,
  version: string,
): Handler<'getIndex'> {
  return ({ c }) => {
    const read = headerReader(c);
    if ((read('accept') ?? '').includes('text/html'))
      return { status: 302, headers: { location: DASHBOARD_PATH } };
    const base = new URL(requestUrl(c, config.trustProxy, read)).origin;
    const body = {
      name: 'paysandbox',
      version,
      links: {
        dashboard: `${base}${DASHBOARD_PATH}`,
        docs: `${base}/docs`,
        openapi_yaml: `${base}/openapi.yaml`,
        openapi_json: `${base}/openapi.json`,
        healthz: `${base}/healthz`,
        control_api: `${base}/_sandbox`,
      },
    };
    // Indented and ending with a newline: read in a terminal (`curl $BASE/`), the prompt stays on its line.
    return c.body(`${JSON.stringify(body, null, 2)}\n`, 200, {
      'content-type': 'application/json',
    });
  };
}
