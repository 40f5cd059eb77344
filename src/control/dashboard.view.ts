import { html, raw } from 'hono/html';
import type { RequestLogEntry } from '../http/request-log.js';
import type { sandboxApp, sandboxCustomer, sandboxMerchant } from '../identities/identity.view.js';
import type { InvoiceResource } from '../invoices/invoice.view.js';
import { DASHBOARD_SCRIPT, DASHBOARD_STYLE } from './dashboard.assets.js';
import type { Fault } from './faults.service.js';

export interface DashboardInvoice {
  invoice: InvoiceResource;
  merchantName: string;
  /** Half the amount due, pre-filled in the "pay part" field. */
  suggestedPart: string;
  wallet: boolean;
  counter: string | null;
}

export interface DashboardData {
  /** Sent back as X-Sandbox-Token by the page's fetch calls; null when no token is configured. */
  token: string | null;
  clock: { now: string; offsetSeconds: number };
  merchants: Array<ReturnType<typeof sandboxMerchant>>;
  apps: Array<ReturnType<typeof sandboxApp>>;
  customers: Array<ReturnType<typeof sandboxCustomer>>;
  invoices: DashboardInvoice[];
  faults: Fault[];
  requests: RequestLogEntry[];
}

const balances = (accounts: Array<{ currency: string; balance: string }>) => accounts.map((a) => `${a.balance} ${a.currency}`).join(', ');

function invoiceRow({ invoice: i, merchantName, suggestedPart, wallet, counter }: DashboardInvoice) {
  const actions =
    i.status === 'pending'
      ? html`<div class="actions">
          ${wallet ? html`<button data-action="pay" data-invoice="${i.id}" data-collector="coins_peso_wallet" data-testid="pay-full-wallet">Pay in full (wallet)</button>` : ''}
          ${counter ? html`<button data-action="pay" data-invoice="${i.id}" data-collector="${counter}" data-testid="pay-full-counter">Pay in full (counter)</button>` : ''}
          <label>Part <input id="part-${i.id}" value="${suggestedPart}" size="10" inputmode="decimal" aria-label="Amount to pay for ${i.external_transaction_id}"></label>
          <button data-action="pay-part" data-invoice="${i.id}" data-collector="${wallet ? 'coins_peso_wallet' : (counter ?? '')}" data-testid="pay-part">Pay part</button>
          <button data-action="expire" data-invoice="${i.id}" data-testid="expire">Expire</button>
          <button data-action="cancel" data-invoice="${i.id}" data-testid="cancel">Cancel</button>
        </div>`
      : html`<span class="muted">no actions</span>`;
  return html`<tr data-testid="invoice-row" data-invoice-id="${i.id}">
    <td><code>${i.id}</code><br><span class="muted">${merchantName} · ${i.external_transaction_id}</span></td>
    <td><span class="status ${i.status}" data-testid="invoice-status">${i.status}</span></td>
    <td>${i.amount}<br><span class="muted">due ${i.amount_due} · received ${i.amount_received}</span></td>
    <td>${i.expires_at}${i.expires_in_seconds !== null ? html`<br><span class="muted">${i.expires_in_seconds}s left</span>` : ''}
      ${i.current_payment_reference_number ? html`<br>ref <code>${i.current_payment_reference_number}</code>` : ''}</td>
    <td>${actions}</td>
  </tr>`;
}

/** The QA dashboard (sandbox.md §9): server-rendered, no external assets, works offline. */
export function dashboardPage(d: DashboardData) {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>paysandbox — QA dashboard</title><style>${raw(DASHBOARD_STYLE)}</style></head>
<body data-token="${d.token ?? ''}">
<header><h1>paysandbox QA dashboard</h1>
  <p id="status" role="status" aria-live="polite" data-testid="dashboard-status"></p></header>
<main>
<section aria-labelledby="clock-h"><h2 id="clock-h">Clock</h2>
  <p>Sandbox time <strong data-testid="clock-now">${d.clock.now}</strong> (offset ${d.clock.offsetSeconds} s)</p>
  <form data-form="advance"><label>Advance by <input name="seconds" type="number" min="1" step="any" value="900" required> seconds</label>
    <button type="submit" data-testid="clock-advance">Advance</button>
    <button type="button" data-action="clock-reset">Reset clock</button></form>
</section>
<section aria-labelledby="inv-h"><h2 id="inv-h">Recent invoices</h2>
  <p><button data-action="trigger" data-event="invoice.created" data-testid="create-invoice">Create an invoice (first merchant)</button>
     <button data-action="reset" class="danger">Reset sandbox (reload fixtures)</button></p>
  ${d.invoices.length
    ? html`<div class="scroll"><table><thead><tr><th>Invoice</th><th>Status</th><th>Amount</th><th>Expiry</th><th>Actions</th></tr></thead>
      <tbody>${d.invoices.map(invoiceRow)}</tbody></table></div>`
    : html`<p class="muted">No invoices yet.</p>`}
</section>
<section aria-labelledby="m-h"><h2 id="m-h">Merchants</h2><div class="scroll"><table>
  <thead><tr><th>Name</th><th>merchant_api_token</th><th>bearer_token</th><th>Callback URL</th><th>Wallet</th></tr></thead>
  <tbody>${d.merchants.map((m) => html`<tr><td>${m.name}</td><td><code>${m.merchant_api_token}</code></td><td><code>${m.bearer_token ?? '—'}</code></td>
    <td>${m.callback_url ?? '—'}</td><td><code>${m.wallet_account_id}</code></td></tr>`)}</tbody></table></div></section>
<section aria-labelledby="a-h"><h2 id="a-h">HMAC applications</h2><div class="scroll"><table>
  <thead><tr><th>Name</th><th>api_key</th><th>api_secret</th><th>OTP</th><th>Owner balances</th></tr></thead>
  <tbody>${d.apps.map((a) => html`<tr><td>${a.name}</td><td><code>${a.api_key}</code></td><td><code>${a.api_secret}</code></td>
    <td>${a.mfa_whitelisted ? 'whitelisted' : html`secret <code>${a.otp_secret}</code>`}</td><td>${balances(a.owner.accounts)}</td></tr>`)}</tbody></table></div></section>
<section aria-labelledby="c-h"><h2 id="c-h">Customers</h2><div class="scroll"><table>
  <thead><tr><th>Email</th><th>Password</th><th>Mobile</th><th>Balances</th></tr></thead>
  <tbody>${d.customers.map((c) => html`<tr><td>${c.email}</td><td><code>${c.password}</code></td><td>${c.mobile_number}</td><td>${balances(c.accounts)}</td></tr>`)}</tbody></table></div></section>
<section aria-labelledby="f-h"><h2 id="f-h">Faults</h2>
  ${d.faults.length
    ? html`<ul>${d.faults.map((f) => html`<li><code>${f.method} ${f.path}</code> → ${f.status ?? 'latency only'}${f.latency_ms ? ` after ${f.latency_ms} ms` : ''}${f.count !== undefined ? `, ${f.count} left` : ''}${f.probability !== undefined ? `, p=${f.probability}` : ''} · ${f.hits} hits</li>`)}</ul>
      <button data-action="clear-faults">Clear all faults</button>`
    : html`<p class="muted">No active faults.</p>`}
  <form data-form="fault"><label>Method <select name="method"><option>*</option><option>GET</option><option>POST</option></select></label>
    <label>Path glob <input name="path" value="/v1/invoices/**" required></label>
    <label>Status <input name="status" type="number" min="200" max="599" value="500"></label>
    <label>Count <input name="count" type="number" min="1" placeholder="unlimited"></label>
    <button type="submit">Inject fault</button></form>
</section>
<section aria-labelledby="r-h"><h2 id="r-h">Recent requests</h2>
  ${d.requests.length
    ? html`<div class="scroll"><table><thead><tr><th>At</th><th>Request</th><th>Status</th><th>Auth</th></tr></thead><tbody>
      ${d.requests.map((r) => html`<tr><td>${r.at}</td><td><code>${r.method} ${r.path}</code></td><td>${r.status}</td><td>${r.auth}</td></tr>`)}</tbody></table></div>`
    : html`<p class="muted">No requests yet.</p>`}
</section>
</main>
<script>${raw(DASHBOARD_SCRIPT)}</script>
</body></html>`;
}

/** Shown instead of the dashboard when the control token is missing or wrong. */
export function tokenRequiredPage() {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>paysandbox — control token required</title></head>
<body><h1>Control token required</h1><p>This sandbox runs with a control token. Open <code>/_sandbox/?token=&lt;token&gt;</code>
or send the <code>X-Sandbox-Token</code> header.</p></body></html>`;
}
