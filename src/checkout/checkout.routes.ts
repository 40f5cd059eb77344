import { randomBytes } from 'node:crypto';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { ApiError } from '../shared/api-error.js';
import { clientClosed } from '../http/client-closed.js';
import { renderError } from '../http/render-error.js';
import { inRequestScope, type AppEnv } from '../http/operation.js';
import { foreignSource, refusedHost, type OriginConfig } from '../http/same-origin.js';
import { pageUrl } from './checkout.format.js';
import type { NoticeKind, PageRequest, SandboxOutcome } from './checkout.model.js';
import type { CheckoutService } from './checkout.service.js';
import { SESSION_SECONDS } from './checkout.session.js';
import { renderBadFormPage } from './checkout.bad-form.view.js';
import { renderCrossSitePage } from './checkout.cross-site.view.js';
import { renderCheckoutPage, renderNotFoundPage } from './checkout.view.js';

export const SESSION_COOKIE = 'paysandbox_wallet';
const BASE = '/payment/invoice/:id';
const OUTCOMES: readonly SandboxOutcome[] = ['full', 'part', 'expire'];

/** HTTP status of the page re-rendered after a failed action. */
const NOTICE_STATUS: Record<NoticeKind, 400 | 401 | 403 | 409> = {
  login_failed: 401,
  session_expired: 401,
  insufficient_balance: 409,
  unsupported_outlet: 400,
  sandbox_unavailable: 409,
  receiver_full: 409,
  sandbox_receiver_full: 409,
};

type C = Context<AppEnv>;

/**
 * Inline style and script only, under a per-response nonce; nothing is loaded from elsewhere. Forms post
 * here only, but a payment that completes the invoice is answered with a redirect to the merchant, and
 * `form-action` also governs redirects: that one origin is allowed too.
 */
export function send(
  c: C,
  html: string,
  nonce: string,
  status: 200 | 400 | 401 | 403 | 404 | 409 = 200,
  returnUrl?: string | null,
): Response {
  const merchant = returnUrl ? ` ${new URL(returnUrl).origin}` : '';
  c.header(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; ` +
      `form-action 'self'${merchant}; base-uri 'none'; frame-ancestors 'none'`,
  );
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'same-origin');
  c.header('X-Content-Type-Options', 'nosniff');
  return c.html(html, status);
}

export const newNonce = () => randomBytes(16).toString('base64');
export const field = (form: Record<string, unknown>, name: string) =>
  typeof form[name] === 'string' ? (form[name] as string) : '';

/**
 * The form of an action posted to a hosted page: the page's 404 when it does not exist, the 400 page
 * (with a way back to `path`) for a body no form parser reads, else the fields.
 */
export async function readForm(
  c: C,
  page: { exists: boolean; path: string; notFound: (nonce: string) => string },
): Promise<Record<string, unknown> | Response> {
  const nonce = newNonce();
  if (!page.exists) return send(c, page.notFound(nonce), nonce, 404);
  try {
    return (await c.req.parseBody()) as Record<string, unknown>;
  } catch (err) {
    if (clientClosed(c, err)) throw err; // not a bad form: the client went away (logged as 499)
    return send(c, renderBadFormPage(nonce, page.path), nonce, 400);
  }
}

type FormReader = (c: C) => Promise<Record<string, unknown> | Response>;

/**
 * A form post's route: the form (or the page `formOr` answers instead), then `act` on it, synchronous,
 * in the request's tenant scope (the await of the body left it: src/clock/tenant-clocks.ts).
 */
export const onForm =
  (formOr: FormReader, act: (c: C, form: Record<string, unknown>) => Response) =>
  async (c: C): Promise<Response> => {
    const form = await formOr(c);
    return form instanceof Response ? form : inRequestScope(c, () => act(c, form));
  };

/** The `:id` of a hosted page's route (`/payment/invoice/:id/…`, `/payment/request/:id/…`). */
export const idOf = (c: C): string => c.req.param('id') ?? '';

/**
 * Every form post of the hosted pages (`/payment/…`: pay, expire, log in, confirm, log out, choose an
 * outlet, answer a payment request) changes something, so one from another site is refused, as the
 * control API refuses it (src/http/same-origin.ts): an `Origin` other than the sandbox's own, or with no
 * Origin a foreign `Referer`, gets a 403 page and changes nothing. SameSite=Lax alone is not enough: other
 * ports of localhost are the same site. Posts with neither header (curl, scripts) are not a browser's.
 * A browser's post to a host name that is not a loopback address, the public URL's host or one of
 * `--allowed-hosts` is refused the same way (DNS rebinding: such a page is same-origin with itself).
 */
export function refuseCrossSiteForms(config: OriginConfig): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== 'POST') return next();
    // A browser's post (it names its origin) to a host that is not this sandbox's: DNS rebinding.
    const browser = c.req.header('origin') !== undefined || c.req.header('referer') !== undefined;
    const rebound = browser ? refusedHost(c, config) : null;
    const source =
      rebound !== null ? `a page on ${rebound}` : foreignSource(c, config, { referer: true });
    if (source === undefined) return next();
    const nonce = newNonce();
    const page = /^\/payment\/(invoice|request)\/[^/]+/.exec(c.req.path)?.[0] ?? '/';
    const hint =
      rebound === null
        ? undefined
        : `This sandbox takes browser forms only at localhost, a loopback address, its public URL ` +
          `(--public-url) or a host named with --allowed-hosts, not at "${rebound}".`;
    return send(c, renderCrossSitePage(nonce, source.slice(0, 200), page, hint), nonce, 403);
  };
}

/** The wallet session a hosted page's request carries, if any. */
export const walletCookie = (c: C) => getCookie(c, SESSION_COOKIE);

/**
 * Keep a wallet login: HttpOnly (no script reads it), SameSite=Lax (no cross-site post carries it),
 * Secure over https, scoped to one page's `path` and lasting as long as the session itself.
 */
export function setWalletCookie(c: C, path: string, token: string): void {
  setCookie(c, SESSION_COOKIE, token, {
    path,
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.req.url).protocol === 'https:',
    maxAge: SESSION_SECONDS,
  });
}

export const clearWalletCookie = (c: C, path: string) => deleteCookie(c, SESSION_COOKIE, { path });

/**
 * The hosted payment page: `GET /payment/invoice/{id}` (the invoice's `payment_url`), its status poll,
 * and plain HTML form posts answered with redirect-after-POST (a failed action re-renders the page
 * with its message and a 4xx status).
 */
export function registerCheckoutRoutes(app: Hono<AppEnv>, checkout: CheckoutService): void {
  function render(
    c: C,
    req: Omit<PageRequest, 'nonce' | 'session'>,
    status?: 200 | NoticeKind,
  ): Response {
    const id = idOf(c);
    const nonce = newNonce();
    const page = checkout.page(id, { ...req, nonce, session: walletCookie(c) });
    if (!page) return send(c, renderNotFoundPage(nonce), nonce, 404);
    return send(
      c,
      renderCheckoutPage(page),
      nonce,
      status && status !== 200 ? NOTICE_STATUS[status] : 200,
      page.returnUrl,
    );
  }

  /**
   * Success: straight to the merchant when the invoice is now paid or expired, else back to the page
   * (303, so a reload never posts twice). Failure: the page with its notice.
   */
  function after(
    c: C,
    notice: NoticeKind | null,
    req: Omit<PageRequest, 'nonce' | 'session'>,
  ): Response {
    if (notice) return render(c, { ...req, notice }, notice);
    const id = idOf(c);
    return c.redirect(checkout.exitUrl(id) ?? pageUrl(id, req.method, req.outletId), 303);
  }

  /** Unknown invoice → 404 page; unreadable body → 400 page; else the form. */
  const formOr = (c: C) => {
    const id = idOf(c);
    return readForm(c, {
      exists: checkout.status(id) !== null,
      path: pageUrl(id),
      notFound: renderNotFoundPage,
    });
  };

  app.get(BASE, (c) =>
    render(c, { method: c.req.query('method'), outletId: c.req.query('outlet') }),
  );

  app.get(`${BASE}/status`, (c) => {
    const status = checkout.status(idOf(c));
    c.header('Cache-Control', 'no-store');
    if (!status) return renderError(c, ApiError.notFound());
    return c.json(status);
  });

  app.post(
    `${BASE}/wallet/login`,
    onForm(formOr, (c, body) => {
      const id = idOf(c);
      const login = field(body, 'login').slice(0, 254);
      const token = checkout.login(id, login, field(body, 'password'));
      if (!token)
        return render(
          c,
          { method: 'wallet', notice: 'login_failed', loginValue: login },
          'login_failed',
        );
      setWalletCookie(c, pageUrl(id), token);
      return c.redirect(pageUrl(id, 'wallet'), 303);
    }),
  );

  app.post(
    `${BASE}/wallet/confirm`,
    onForm(formOr, (c) => {
      const notice = checkout.confirm(idOf(c), walletCookie(c));
      return after(c, notice, { method: 'wallet' });
    }),
  );

  app.post(
    `${BASE}/wallet/logout`,
    onForm(formOr, (c) => {
      const id = idOf(c);
      checkout.logout(walletCookie(c));
      clearWalletCookie(c, pageUrl(id));
      return c.redirect(pageUrl(id, 'wallet'), 303);
    }),
  );

  app.post(
    `${BASE}/counter`,
    onForm(formOr, (c, body) => {
      const outletId = field(body, 'outlet');
      const notice = checkout.chooseOutlet(idOf(c), outletId);
      return after(c, notice, { method: 'counter', outletId: notice ? undefined : outletId });
    }),
  );

  app.post(
    `${BASE}/sandbox`,
    onForm(formOr, (c, body) => {
      const outcome = field(body, 'outcome') as SandboxOutcome;
      if (!checkout.chooserEnabled() || !OUTCOMES.includes(outcome)) {
        const nonce = newNonce();
        const page = checkout.page(idOf(c), { nonce });
        return send(
          c,
          renderCheckoutPage(page!),
          nonce,
          checkout.chooserEnabled() ? 400 : 403,
          page!.returnUrl,
        );
      }
      return after(c, checkout.sandboxOutcome(idOf(c), outcome), {});
    }),
  );
}
