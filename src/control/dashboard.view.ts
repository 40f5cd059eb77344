import { html } from 'hono/html';
import { WALLET_COLLECTOR } from '../payments/payments.service.js';
import { deliveriesSection, faultsSection, requestsSection } from './dashboard.activity.view.js';
import { DASHBOARD_SCRIPT_PATH, DASHBOARD_STYLE_PATH } from './dashboard.assets.js';
import { createInvoiceCurl, getInvoiceCurl, payInvoiceCurl } from './dashboard.curl.js';
import { inboxSection } from './dashboard.inbox.view.js';
import { curlBlock, invoiceLinks, liveRegion, tenantClockNote } from './dashboard.parts.js';
import type { DashboardData, DashboardInvoice } from './dashboard.data.js';

export type { DashboardData, DashboardInvoice } from './dashboard.data.js';

const balances = (accounts: Array<{ currency: string; balance: string }>) =>
  accounts.map((a) => `${a.balance} ${a.currency}`).join(', ');

function invoiceRow(d: DashboardData) {
  return ({
    invoice: i,
    merchantName,
    tenantClock,
    suggestedPart,
    wallet,
    counter,
  }: DashboardInvoice) => {
    // External ids are unique per merchant only: the id's tail keeps each row's button names apart.
    const name = `${i.external_transaction_id} (…${i.id.slice(-8)})`;
    const partCollector = wallet ? WALLET_COLLECTOR : (counter ?? '');
    const actions =
      i.status === 'pending'
        ? html`<div class="actions">
          ${wallet ? html`<button id="pay-wallet-${i.id}" data-action="pay" data-invoice="${i.id}" data-collector="${WALLET_COLLECTOR}" data-testid="pay-full-wallet" aria-label="Pay in full (wallet): invoice ${name}">Pay in full (wallet)</button>` : ''}
          ${counter ? html`<button id="pay-counter-${i.id}" data-action="pay" data-invoice="${i.id}" data-collector="${counter}" data-testid="pay-full-counter" aria-label="Pay in full (counter): invoice ${name}">Pay in full (counter)</button>` : ''}
          <label class="part">Part <input id="part-${i.id}" value="${suggestedPart}" size="10" inputmode="decimal" aria-label="Part amount to pay for invoice ${name}"></label>
          <button id="pay-part-${i.id}" data-action="pay-part" data-invoice="${i.id}" data-collector="${partCollector}" data-testid="pay-part" aria-label="Pay part: invoice ${name}">Pay part</button>
          <button id="expire-${i.id}" data-action="expire" data-invoice="${i.id}" data-testid="expire" aria-label="Expire invoice ${name}">Expire</button>
          <button id="cancel-${i.id}" data-action="cancel" data-invoice="${i.id}" data-testid="cancel" aria-label="Cancel invoice ${name}">Cancel</button>
        </div>
        ${curlBlock(`curl-pay-${i.id}`, 'curl: pay', `invoice ${name}`, payInvoiceCurl(d.baseUrl, d.token, i.id, partCollector))}`
        : i.status === 'fully_paid'
          ? html`<div class="actions"><button id="send-paid-${i.id}" data-action="send-callback" data-invoice="${i.id}" data-event="invoice.fully_paid" data-testid="send-fully-paid" aria-label="Send invoice.fully_paid again: invoice ${name}">Send invoice.fully_paid</button></div>
            <span class="muted">a manual send (new event id; Redeliver below repeats one with its own)</span>`
          : html`<span class="muted">no actions</span>`;
    return html`<tr data-testid="invoice-row" data-invoice-id="${i.id}">
    <td class="id">${invoiceLinks(i.id, i.payment_url)}<br><span class="muted">${merchantName} · ${i.external_transaction_id}</span>${tenantClockNote(tenantClock)}
      ${curlBlock(`curl-get-${i.id}`, 'curl: read', `invoice ${name}`, getInvoiceCurl(d.baseUrl, d.token, i.id))}</td>
    <td><span class="status ${i.status}" data-testid="invoice-status">${i.status}</span></td>
    <td>${i.amount}<br><span class="muted">due ${i.amount_due} · received ${i.amount_received}</span></td>
    <td>${i.expires_at}${i.expires_in_seconds !== null ? html`<br><span class="muted">${i.expires_in_seconds}s left</span>` : ''}
      ${i.current_payment_reference_number ? html`<br>ref <code>${i.current_payment_reference_number}</code>` : ''}</td>
    <td>${actions}</td>
  </tr>`;
  };
}

/** Payment requests with a link to each one's payer page (where the payer logs in and pays or declines). */
function paymentRequestsSection(d: DashboardData) {
  return html`<section aria-labelledby="preq-h"><h2 id="preq-h">Recent payment requests</h2>
  <p class="muted">Open a request's page to pay or decline it as its payer (log in with the customer's email and password below).</p>
  ${liveRegion(
    'live-payment-requests',
    'Recent payment requests table',
    d.paymentRequests.length
      ? html`<table><thead><tr><th>Payment request</th><th>Status</th><th>Amount</th><th>Payer</th><th>Expires</th></tr></thead>
      <tbody>${d.paymentRequests.map(
        (r) => html`<tr data-testid="payment-request-row" data-payment-request-id="${r.id}">
        <td class="id"><a href="${r.page_url}" data-testid="payment-request-page-link"><code>${r.id}</code></a>${r.message ? html`<br><span class="muted">${r.message}</span>` : ''}${tenantClockNote(r.tenantClock)}</td>
        <td><span class="status ${r.status}" data-testid="payment-request-status">${r.status}</span></td>
        <td>${r.amount} ${r.currency}</td><td>${r.payer_contact_info}</td><td>${r.expires_at}</td></tr>`,
      )}</tbody></table>`
      : html`<p class="muted">No payment requests yet (<code>POST /v3/payment-requests/</code> creates one).</p>`,
  )}
</section>`;
}

/** An app's live access tokens, or how to issue one. */
function appTokens(a: DashboardData['apps'][number]) {
  if (!a.tokens.length)
    return html`none; issue one with <code>POST /_sandbox/apps/${a.api_key}/tokens</code>`;
  return a.tokens.map(
    (tk) =>
      html`<div><code>${tk.access_token}</code> <small>${tk.scope}, until ${tk.expires_at}</small></div>`,
  );
}

function identitiesSections(d: DashboardData) {
  return html`<section aria-labelledby="m-h"><h2 id="m-h">Merchants</h2>${liveRegion(
    'live-merchants',
    'Merchants table',
    html`<table>
  <thead><tr><th>Name</th><th>merchant_api_token</th><th>bearer_token</th><th>Callback URL</th><th>Wallet</th></tr></thead>
  <tbody>${d.merchants.map(
    (
      m,
    ) => html`<tr><td>${m.name}${tenantClockNote(m.tenantClock)}</td><td><code>${m.merchant_api_token}</code></td><td><code>${m.bearer_token ?? '—'}</code></td>
    <td>${m.callback_url ?? '—'}</td><td><code>${m.wallet_account_id}</code></td></tr>`,
  )}</tbody></table>`,
  )}</section>
<section aria-labelledby="a-h"><h2 id="a-h">HMAC applications</h2>${liveRegion(
    'live-apps',
    'HMAC applications table',
    html`<table>
  <thead><tr><th>Name</th><th>api_key</th><th>api_secret</th><th>OTP</th><th>OAuth2 tokens (Bearer)</th><th>Owner balances</th></tr></thead>
  <tbody>${d.apps.map(
    (
      a,
    ) => html`<tr><td>${a.name}${tenantClockNote(a.tenantClock)}</td><td><code>${a.api_key}</code></td><td><code>${a.api_secret}</code></td>
    <td>${a.mfa_whitelisted ? 'whitelisted' : html`secret <code>${a.otp_secret}</code>`}</td><td>${appTokens(a)}</td><td>${balances(a.owner.accounts)}</td></tr>`,
  )}</tbody></table>`,
  )}</section>
<section aria-labelledby="c-h"><h2 id="c-h">Customers</h2>${liveRegion(
    'live-customers',
    'Customers table',
    html`<table>
  <thead><tr><th>Email</th><th>Password</th><th>Mobile</th><th>Balances</th></tr></thead>
  <tbody>${d.customers.map((c) => html`<tr><td>${c.email}${tenantClockNote(c.tenantClock)}</td><td><code>${c.password}</code></td><td>${c.mobile_number}</td><td>${balances(c.accounts)}</td></tr>`)}</tbody></table>`,
  )}</section>`;
}

/**
 * The QA dashboard: server-rendered; its style and script are served from /_sandbox/dashboard/ under
 * a strict CSP (nothing inline, nothing from elsewhere), and it refreshes its lists in place.
 */
export function dashboardPage(d: DashboardData) {
  const first = d.merchants[0];
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>paysandbox — QA dashboard</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${DASHBOARD_STYLE_PATH}"></head>
<body data-token="${d.token ?? ''}" data-version="${d.version}">
<a class="skip" href="#main">Skip to main content</a>
<header><h1>paysandbox QA dashboard</h1>
  <p class="muted">Updates by itself every 2 seconds while open (<span id="live-state" data-testid="live-state">live</span>).</p>
  <p id="status" role="status" aria-live="polite" tabindex="-1" data-testid="dashboard-status"></p>
  ${d.filters.problems.length ? html`<ul class="problems" data-testid="filter-problems">${d.filters.problems.map((p) => html`<li>${p}</li>`)}</ul>` : ''}</header>
<main id="main" tabindex="-1">
<section aria-labelledby="clock-h"><h2 id="clock-h">Clock</h2>
  <p>Sandbox time <strong data-testid="clock-now" id="clock-now">${d.clock.now}</strong> (offset <span id="clock-offset" data-testid="clock-offset">${d.clock.offsetSeconds}</span> s)</p>
  <form data-form="advance"><label>Advance by <input name="seconds" type="number" min="1" step="any" value="900" required> seconds</label>
    <button type="submit" data-testid="clock-advance">Advance</button>
    <button type="button" data-action="clock-reset">Reset clock</button></form>
</section>
<section aria-labelledby="inv-h"><h2 id="inv-h">Recent invoices</h2>
  <p><button data-action="trigger" data-event="invoice.created" data-testid="create-invoice">Create an invoice (first merchant)</button>
     <button data-action="reset" class="danger">Reset sandbox (reload fixtures)</button></p>
  ${first ? curlBlock('curl-create', 'curl: create an invoice', `as ${first.name}`, createInvoiceCurl(d.baseUrl, first.merchant_api_token)) : ''}
  ${liveRegion(
    'live-invoices',
    'Recent invoices table',
    d.invoices.length
      ? html`<table><thead><tr><th>Invoice</th><th>Status</th><th>Amount</th><th>Expiry</th><th>Actions</th></tr></thead>
      <tbody>${d.invoices.map(invoiceRow(d))}</tbody></table>`
      : html`<p class="muted">No invoices yet.</p>`,
  )}
</section>
${paymentRequestsSection(d)}
${deliveriesSection(d)}
${inboxSection(d)}
${faultsSection(d)}
${requestsSection(d)}
${identitiesSections(d)}
</main>
<script src="${DASHBOARD_SCRIPT_PATH}"></script>
</body></html>`;
}

/** Shown instead of the dashboard when the control token is missing or wrong. */
export function tokenRequiredPage() {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>paysandbox — control token required</title></head>
<body><h1>Control token required</h1><p>This sandbox runs with a control token. Open <code>/_sandbox/?token=&lt;token&gt;</code>
or send the <code>X-Sandbox-Token</code> header.</p></body></html>`;
}
