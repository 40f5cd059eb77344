import type { Context, Hono } from 'hono';
import { authenticateControl } from '../auth/authenticate.js';
import { ApiError } from '../shared/api-error.js';
import { renderError } from '../http/render-error.js';
import type { AppEnv } from '../http/operation.js';
import type { ServicesWith } from '../module.types.js';
import { formatTimestamp } from '../shared/clock.js';
import type { ControlReads } from './control.reads.js';
import {
  DASHBOARD_SCRIPT_PATH,
  DASHBOARD_STYLE,
  DASHBOARD_STYLE_PATH,
} from './dashboard.assets.js';
import {
  collectData,
  dashboardVersion,
  parseFilters,
  type DashboardSources,
} from './dashboard.data.js';
import { DASHBOARD_SCRIPT } from './dashboard.script.js';
import { dashboardPage, tokenRequiredPage } from './dashboard.view.js';
import type { FaultStore } from './faults.service.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities' | 'ledger' | 'invoices'>;

/** Style and script from this origin only, nothing inline; fetch to this origin only; never framed. */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

function secure(c: Context<AppEnv>): void {
  c.header('Content-Security-Policy', DASHBOARD_CSP);
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'same-origin');
  c.header('X-Content-Type-Options', 'nosniff');
}

/** With a control token configured, the page and its poll need it (`?token=` or `X-Sandbox-Token`). */
function refused(c: Context<AppEnv>, expected: string | null): ApiError | null {
  try {
    authenticateControl(expected, c.req.query('token') ?? c.req.header('x-sandbox-token'));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return err;
  }
  c.set('authOutcome', 'control');
  return null;
}

/**
 * `GET /_sandbox/`: the QA dashboard; `GET /_sandbox/dashboard/state`: what its live poll asks (a
 * version that moves whenever the page would show something else, and the sandbox clock);
 * `GET /_sandbox/dashboard/dashboard.{css,js}`: its style and script (no secrets, no token needed).
 */
export function registerDashboard(
  app: Hono<AppEnv>,
  s: ModuleServices,
  ctx: DashboardSources,
  repo: ControlReads,
  faults: FaultStore,
): void {
  app.get('/_sandbox', async (c) => {
    secure(c);
    if (refused(c, s.config.controlToken)) return c.html(tokenRequiredPage(), 401);
    const filters = parseFilters((name) => c.req.query(name));
    return c.html(
      dashboardPage(await collectData(s, ctx, repo, faults, s.config.controlToken, filters)),
    );
  });
  app.get('/_sandbox/dashboard/state', (c) => {
    c.header('Cache-Control', 'no-store');
    const err = refused(c, s.config.controlToken);
    if (err) return renderError(c, err);
    return c.json({
      version: dashboardVersion(s, ctx, repo, faults),
      now: formatTimestamp(s.clock.now()),
      offset_seconds: s.clock.offsetMicros() / 1_000_000,
    });
  });
  const asset = (path: string, type: string, body: string) =>
    app.get(path, (c) => {
      c.header('Content-Type', type);
      c.header('Cache-Control', 'no-cache');
      c.header('X-Content-Type-Options', 'nosniff');
      return c.body(body);
    });
  asset(DASHBOARD_STYLE_PATH, 'text/css; charset=utf-8', DASHBOARD_STYLE);
  asset(DASHBOARD_SCRIPT_PATH, 'text/javascript; charset=utf-8', DASHBOARD_SCRIPT);
}
