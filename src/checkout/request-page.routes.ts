import type { Context, Hono } from 'hono';
import type { AppEnv } from '../http/operation.js';
import { PAYMENT_REQUEST_PAGE } from '../wallet/payment-requests.service.js';
import {
  clearWalletCookie,
  field,
  idOf,
  newNonce,
  onForm,
  readForm,
  send,
  setWalletCookie,
  walletCookie,
} from './checkout.routes.js';
import type {
  RequestNotice,
  RequestPageRequest,
  RequestPageService,
} from './request-page.service.js';
import { renderRequestNotFound, renderRequestPage, requestPagePath } from './request-page.view.js';

type C = Context<AppEnv>;

/** HTTP status of the page re-rendered after a failed action. */
const NOTICE_STATUS: Record<RequestNotice, 401 | 403 | 409> = {
  login_failed: 401,
  session_expired: 401,
  insufficient_balance: 409,
  wrong_payer: 403,
  receiver_full: 409,
};

/**
 * The payer's page of a payment request, `GET /payment/request/{id}` (the create call's
 * `X-Sandbox-Payment-Url`), beside the invoice page and built the same way: plain HTML form posts
 * answered with redirect-after-POST (so a reload never posts twice), a failed action re-rendering the
 * page with its message and a 4xx status, the wallet session in an HttpOnly SameSite=Lax cookie scoped
 * to this request's path, and the invoice page's CSP, layout and script.
 */
export function registerRequestPageRoutes(app: Hono<AppEnv>, pages: RequestPageService): void {
  const BASE = `${PAYMENT_REQUEST_PAGE}/:id`;
  const id = idOf;

  function render(
    c: C,
    req: Omit<RequestPageRequest, 'nonce' | 'session'>,
    notice?: RequestNotice,
  ): Response {
    const nonce = newNonce();
    const page = pages.page(id(c), { ...req, nonce, session: walletCookie(c) });
    if (!page) return send(c, renderRequestNotFound(nonce), nonce, 404);
    return send(c, renderRequestPage(page), nonce, notice ? NOTICE_STATUS[notice] : 200);
  }

  /** Unknown request → 404 page; a body no form parser reads → 400 page; else the form. */
  const formOr = (c: C) =>
    readForm(c, {
      exists: pages.exists(id(c)),
      path: requestPagePath(id(c)),
      notFound: renderRequestNotFound,
    });

  /** Done: back to the page, which shows the new state focused (303). Refused: the page with its notice. */
  const after = (c: C, notice: RequestNotice | null) =>
    notice ? render(c, { notice }, notice) : c.redirect(requestPagePath(id(c)), 303);

  app.get(BASE, (c) => render(c, {}));

  app.post(
    `${BASE}/wallet/login`,
    onForm(formOr, (c, body) => {
      const login = field(body, 'login').slice(0, 254);
      const token = pages.login(id(c), login, field(body, 'password'));
      if (!token) return render(c, { notice: 'login_failed', loginValue: login }, 'login_failed');
      setWalletCookie(c, requestPagePath(id(c)), token);
      return c.redirect(requestPagePath(id(c)), 303);
    }),
  );

  app.post(
    `${BASE}/pay`,
    onForm(formOr, (c) => {
      return after(c, pages.respond(id(c), walletCookie(c), 'paid'));
    }),
  );

  app.post(
    `${BASE}/decline`,
    onForm(formOr, (c) => {
      return after(c, pages.respond(id(c), walletCookie(c), 'declined'));
    }),
  );

  app.post(
    `${BASE}/wallet/logout`,
    onForm(formOr, (c) => {
      pages.logout(walletCookie(c));
      clearWalletCookie(c, requestPagePath(id(c)));
      return c.redirect(requestPagePath(id(c)), 303);
    }),
  );
}
