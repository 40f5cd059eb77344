import type { Hono } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../http/operation.js';
import type { Merchant } from '../identities/identities.api.js';
import type { Invoice } from '../invoices/invoices.api.js';
import { formatMoney } from '../shared/money.js';
import type { Inbox } from './inbox.js';

const CSP =
  "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export interface ThankYouDeps {
  merchantById: (id: string) => Merchant | undefined;
  /** The invoice as the merchant would read it (expired if due). */
  invoiceById: (id: string) => Invoice | undefined;
  inbox: Inbox;
}

function page(title: string, body: unknown) {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><link rel="stylesheet" href="/_sandbox/dashboard/dashboard.css"></head>
<body><main id="main">${body}</main></body></html>`;
}

/**
 * `GET /_sandbox/inbox/{merchant_id}/thank-you`: that merchant's example return page (its `redirect_url`
 * out of the box, the first fixture merchant's and a workspace merchant's alike). The hosted page sends the browser here with `?invoice_id=…` once an
 * invoice is paid or expired; it shows what arrived with the redirect, the invoice as the merchant
 * would read it, and the callbacks the example receiver got for it. No control token: it shows no more
 * than the invoice's own hosted page.
 */
export function registerThankYouPage(app: Hono<AppEnv>, d: ThankYouDeps): void {
  app.get('/_sandbox/inbox/:merchant_id/thank-you', (c) => {
    c.header('Content-Security-Policy', CSP);
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Content-Type-Options', 'nosniff');
    const merchant = d.merchantById(c.req.param('merchant_id'));
    if (!merchant) return c.html(page('Not found', html`<h1>No such merchant</h1>`), 404);
    const query = [...new URL(c.req.url).searchParams.entries()];
    const invoiceId = c.req.query('invoice_id');
    const found = invoiceId ? d.invoiceById(invoiceId) : undefined;
    const invoice = found && found.merchant_id === merchant.id ? found : undefined;
    const callbacks = invoice
      ? d.inbox.list({ merchant_id: merchant.id, invoice_id: invoice.id })
      : [];
    const headline =
      invoice?.status === 'fully_paid'
        ? 'Thank you for your payment'
        : invoice
          ? `Your invoice is ${invoice.status}`
          : 'Thank you';
    return c.html(
      page(
        `${merchant.name} — ${headline}`,
        html`<h1 data-testid="thank-you-title">${headline}</h1>
<p data-testid="thank-you-merchant">${merchant.name}'s return page — an example merchant page served by the sandbox for
merchant <code>${merchant.id}</code>, whose <code>redirect_url</code> it is out of the box. The browser came back
from the hosted payment page.</p>
<h2>What arrived with the redirect</h2>
${
  query.length
    ? html`<table data-testid="thank-you-query"><tbody>${query.map(([k, v]) => html`<tr><th scope="row"><code>${k}</code></th><td><code>${v}</code></td></tr>`)}</tbody></table>`
    : html`<p>No query parameters.</p>`
}
<p class="muted">The real service sends only <code>invoice_id</code>, unsigned: a merchant reads the invoice
(<code>GET /v1/invoices/{id}</code>) before showing anything as paid.</p>
<h2>The invoice, as the merchant reads it</h2>
${
  invoice
    ? html`<dl data-testid="thank-you-invoice"><dt>Invoice</dt><dd><code>${invoice.id}</code> (<code>${invoice.external_transaction_id}</code>)</dd>
<dt>Status</dt><dd data-testid="thank-you-status">${invoice.status}</dd>
<dt>Amount</dt><dd>${formatMoney(invoice.amount)} ${invoice.currency}, received ${formatMoney(invoice.amount_received)}</dd></dl>`
    : html`<p data-testid="thank-you-no-invoice">${invoiceId ? 'No invoice of this merchant has this id.' : 'No invoice_id arrived.'}</p>`
}
<h2>Callbacks the example receiver got for it</h2>
${
  callbacks.length
    ? html`<ul data-testid="thank-you-callbacks">${callbacks.map((e) => html`<li>${e.received_at} <code>${e.event ?? '?'}</code> attempt ${e.delivery_attempt ?? '?'} — Authorization ${e.authorization}</li>`)}</ul>`
    : html`<p>None yet (they arrive within a second; reload).</p>`
}
<p><a href="/_sandbox/#inbox">The example receiver's inbox on the dashboard</a></p>`,
      ),
    );
  });
}
