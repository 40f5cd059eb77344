import { html } from 'hono/html';
import type { DashboardData } from './dashboard.data.js';
import { liveRegion } from './dashboard.parts.js';

const VERDICT: Record<string, string> = {
  valid: 'valid token',
  invalid: 'wrong token (a merchant answers 401)',
  missing: 'no token, though one was due (a merchant answers 401)',
  not_sent: 'no token, as expected for this URL',
};

/**
 * The built-in example receiver's inbox (`GET /_sandbox/inbox`): what arrived, with the headers and
 * body, and what a merchant would make of the Authorization header.
 */
export function inboxSection(d: DashboardData) {
  const items = d.inbox.items;
  return html`<section aria-labelledby="inbox-h" id="inbox"><h2 id="inbox-h">Example receiver (inbox)</h2>
  <p class="muted">A merchant callback handler served by the sandbox, one per merchant: out of the box the first fixture
  merchant's and each workspace merchant's <code>callback_url</code> is <code>/_sandbox/inbox/&lt;its id&gt;</code>,
  resolved to this sandbox's own port, and each row names the merchant it was received for. It answers 200 and checks
  <code>Authorization</code> as a merchant would. Point a merchant at your own URL with
  <code>PATCH /_sandbox/merchants/{id}</code> (or keep it here and use <code>paysandbox listen --forward-to</code>).</p>
  ${liveRegion(
    'live-inbox',
    'Example receiver inbox table',
    items.length
      ? html`<p class="muted">${items.length} of ${d.inbox.total} shown. <button data-action="clear-inbox">Empty the inbox</button></p>
      <table><thead><tr><th>Received</th><th>Merchant</th><th>Event</th><th>Invoice</th><th>Attempt</th><th>Authorization</th><th>Request</th></tr></thead>
      <tbody>${items.map(
        (e) => html`<tr data-testid="inbox-row" data-authorization="${e.authorization}">
        <td>${e.received_at}</td><td data-testid="inbox-merchant">${e.merchantName || '(no such merchant)'}<br><code class="id">${e.merchant_id}</code></td><td class="nowrap">${e.event ?? '—'}</td><td class="id"><code>${e.invoice_id ?? '—'}</code></td>
        <td>${e.delivery_attempt ?? '—'}</td>
        <td><span class="status ${e.authorization === 'valid' || e.authorization === 'not_sent' ? 'delivered' : 'failed'}">${VERDICT[e.authorization]}</span>
          <br><span class="muted">${e.authorization_note}</span>${e.from_this_sandbox ? '' : html`<br><strong>not an event this sandbox sent</strong>`}</td>
        <td><details><summary>headers and body<span class="sr-only"> of the callback received at ${e.received_at}</span></summary>
          <pre>${Object.entries(e.headers)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\n')}</pre><pre>${e.body}</pre></details></td></tr>`,
      )}</tbody></table>`
      : html`<p class="muted">Nothing received yet: <code>paysandbox trigger invoice.fully_paid</code> sends one.</p>`,
  )}
</section>`;
}
