import { html } from 'hono/html';
import type { DeliveryResource } from '../callbacks/delivery.view.js';
import { EVENT_NAMES } from '../events/outbox.repo.js';
import { CLIENT_CLOSED_STATUS } from '../http/client-closed.js';
import type { RequestLogEntry } from '../http/request-log.js';
import { DELIVERY_STATUSES, type DashboardData } from './dashboard.data.js';
import { invoiceLinks, liveRegion, tenantClockNote } from './dashboard.parts.js';

// The tail: ids are time-ordered, so ids made in the same instant share their first characters.
const shortId = (id: string) => id.slice(-8);

/**
 * Hidden inputs that carry the token and the other list's filters, so that filtering one list (a plain
 * GET form: works without script, and the URL can be shared) keeps the other as it was.
 */
function keep(d: DashboardData, except: 'delivery' | 'request') {
  const values: Record<string, string | undefined> = {};
  if (d.token) values.token = d.token;
  if (except !== 'delivery') {
    values.invoice = d.filters.delivery.invoice_id;
    values.event = d.filters.delivery.event;
    values.delivery_status = d.filters.delivery.status;
  }
  if (except !== 'request') {
    const r = d.filters.request;
    Object.assign(values, {
      path: r.path || undefined,
      status: r.status || undefined,
      auth: r.auth || undefined,
      polls: r.polls ? '1' : undefined,
    });
  }
  return Object.entries(values)
    .filter(([, v]) => v)
    .map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`);
}

const option = (value: string, selected: string | undefined, label = value) =>
  html`<option value="${value}" ${value === (selected ?? '') ? 'selected' : ''}>${label}</option>`;

function attempts(dl: DeliveryResource) {
  const list = dl.attempts ?? [];
  return html`<details id="dlv-${dl.id}" data-testid="delivery-attempts"><summary>${list.length} attempt${list.length === 1 ? '' : 's'}<span class="sr-only"> of delivery ${shortId(dl.id)}</span></summary>
    ${list.length === 0 ? html`<p class="muted">Not attempted yet.</p><pre>${JSON.stringify(dl.body, null, 2)}</pre>` : ''}
    ${list.map(
      (a) => html`<div class="attempt" data-testid="delivery-attempt">
      <p><strong>Attempt ${a.attempt}</strong> at ${a.started_at} to <code>${a.url}</code>:
        <span data-testid="attempt-status">${a.status_code !== null ? `HTTP ${a.status_code}` : (a.error ?? 'in flight')}</span>
        in ${a.duration_ms} ms${a.status_code !== null && a.error ? html` (${a.error})` : ''}</p>
      <p class="label">Request headers</p><pre>${Object.entries(a.request_headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n')}</pre>
      <p class="label">Request body</p><pre>${a.request_body}</pre>
      <p class="label">Response excerpt</p><pre data-testid="attempt-response">${a.response_excerpt ?? '(none)'}</pre></div>`,
    )}</details>`;
}

function deliveryRow(d: DashboardData) {
  return (
    dl: DashboardData['deliveries']['items'][number],
  ) => html`<tr data-testid="delivery-row" data-delivery-id="${dl.id}" data-status="${dl.status}">
    <td><code title="${dl.id}">…${shortId(dl.id)}</code><br><span class="muted">${dl.created_at}</span>${tenantClockNote(dl.tenantClock)}
      ${dl.redelivery_of ? html`<br><span class="muted">redelivery of …${shortId(dl.redelivery_of)}</span>` : ''}</td>
    <td class="nowrap">${dl.event}</td>
    <td class="id">${invoiceLinks(dl.invoice_id, `${d.baseUrl}/payment/invoice/${encodeURIComponent(dl.invoice_id)}`)}</td>
    <td class="url"><code>${dl.url ?? '—'}</code></td>
    <td><span class="status ${dl.status}" data-testid="delivery-status">${dl.status}</span>
      ${dl.last_error ? html`<br><span class="muted">${dl.last_error}</span>` : ''}
      ${dl.waiting_reason ? html`<br><span class="muted" data-testid="delivery-waiting">${dl.waiting_reason}</span>` : ''}</td>
    <td><button id="redeliver-${dl.id}" data-action="redeliver" data-delivery="${dl.id}" data-testid="redeliver" aria-label="Redeliver delivery ${shortId(dl.id)} (${dl.event})">Redeliver</button></td>
    <td class="attempts">${attempts(dl)}</td>
  </tr>`;
}

/** Every callback delivery (newest first), filterable by invoice, event and status. */
export function deliveriesSection(d: DashboardData) {
  const f = d.filters.delivery;
  return html`<section aria-labelledby="dlv-h"><h2 id="dlv-h">Callback deliveries</h2>
  <form method="get" action="/_sandbox/" class="filters" data-testid="delivery-filters">${keep(d, 'delivery')}
    <label>Invoice <input name="invoice" value="${f.invoice_id ?? ''}" size="34"></label>
    <label>Event <select name="event">${option('', f.event, 'any')}${EVENT_NAMES.map((e) => option(e, f.event))}</select></label>
    <label>Status <select name="delivery_status">${option('', f.status, 'any')}${DELIVERY_STATUSES.map((s) => option(s, f.status))}</select></label>
    <button type="submit">Filter deliveries</button></form>
  ${liveRegion(
    'live-deliveries',
    'Callback deliveries table',
    d.deliveries.items.length
      ? html`<p class="muted">${d.deliveries.items.length} of ${d.deliveries.total} shown.</p>
      <table><thead><tr><th>Delivery</th><th>Event</th><th>Invoice</th><th>URL</th><th>Status</th><th>Actions</th><th>Attempts</th></tr></thead>
      <tbody>${d.deliveries.items.map(deliveryRow(d))}</tbody></table>`
      : html`<p class="muted">No deliveries${f.invoice_id || f.event || f.status ? ' match these filters' : ' yet'}.</p>`,
  )}
</section>`;
}

function faultText(f: DashboardData['faults'][number]) {
  return `${f.method} ${f.path} → ${f.status ?? 'latency only'}${f.latency_ms ? ` after ${f.latency_ms} ms` : ''}${f.count !== undefined ? `, ${f.count} left` : ''}${f.probability !== undefined ? `, p=${f.probability}` : ''}`;
}

/** Active faults (each removable alone) and the form that injects one with every field. */
export function faultsSection(d: DashboardData) {
  return html`<section aria-labelledby="f-h"><h2 id="f-h">Faults</h2>
  <div id="live-faults" data-live>
  ${
    d.faults.length
      ? html`<ul class="faults">${d.faults.map(
          (
            f,
          ) => html`<li data-testid="fault" data-fault-id="${f.id}"><code>${faultText(f)}</code> · ${f.hits} hits
        ${f.body !== undefined ? html`<br><span class="muted">body <code>${JSON.stringify(f.body)}</code></span>` : ''}
        <button type="button" id="delete-fault-${f.id}" data-action="delete-fault" data-fault="${f.id}" data-testid="delete-fault" aria-label="Delete fault ${f.method} ${f.path} (${shortId(f.id)})">Delete</button></li>`,
        )}</ul>
      <button data-action="clear-faults">Clear all faults</button>`
      : html`<p class="muted">No active faults.</p>`
  }
  </div>
  <form data-form="fault" class="fault-form" data-testid="fault-form">
    <label>Method <select name="method">${['*', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => html`<option>${m}</option>`)}</select></label>
    <label>Path glob <input name="path" value="/v1/invoices/**" required maxlength="500"></label>
    <label>Status <input name="status" type="number" min="200" max="599" value="500" aria-describedby="fault-status-hint"></label>
    <span id="fault-status-hint" class="muted">empty with a latency: delay only</span>
    <label>Latency (ms) <input name="latency_ms" type="number" min="0" max="60000" step="1"></label>
    <label>Probability <input name="probability" type="number" min="0" max="1" step="any" placeholder="1"></label>
    <label>Count <input name="count" type="number" min="1" step="1" placeholder="unlimited"></label>
    <label class="wide">Body (JSON, optional) <textarea name="body" rows="2" cols="50" spellcheck="false"></textarea></label>
    <button type="submit" data-testid="inject-fault">Inject fault</button></form>
</section>`;
}

const CLOSED_NOTE = html` <span class="muted">aborted (client closed)</span>`;

function requestRow(r: RequestLogEntry) {
  return html`<tr data-testid="request-row"><td>${r.at}</td>
    <td><code>${r.method} ${r.path}${r.query ? `?${r.query}` : ''}</code>
      ${r.body_excerpt ? html`<br><span class="muted">body</span> <code class="excerpt">${r.body_excerpt}</code>` : ''}</td>
    <td>${r.status}${r.status === CLIENT_CLOSED_STATUS ? CLOSED_NOTE : ''}</td><td>${r.auth}</td><td class="nowrap">${r.duration_ms} ms</td></tr>`;
}

/** The request log, filterable by path, status and auth; the hosted page's status polls hidden unless asked. */
export function requestsSection(d: DashboardData) {
  const f = d.filters.request;
  const { items, matched, hiddenPolls } = d.requests;
  return html`<section aria-labelledby="r-h"><h2 id="r-h">Recent requests</h2>
  <form method="get" action="/_sandbox/" class="filters" data-testid="request-filters">${keep(d, 'request')}
    <label>Path contains <input name="path" value="${f.path}"></label>
    <label>Status <input name="status" value="${f.status}" size="5" placeholder="4xx" aria-describedby="req-status-hint"></label>
    <span id="req-status-hint" class="muted">a code (404) or a class (4xx)</span>
    <label>Auth contains <input name="auth" value="${f.auth}" size="14" placeholder="merchant, invalid…"></label>
    <label class="check"><input type="checkbox" name="polls" value="1" ${f.polls ? 'checked' : ''}> Show the hosted page's status polls</label>
    <button type="submit">Filter requests</button></form>
  ${liveRegion(
    'live-requests',
    'Recent requests table',
    html`<p class="muted">${items.length} of ${matched} shown${!f.polls && hiddenPolls ? `; ${hiddenPolls} status polls of the hosted page hidden` : ''}.</p>
    ${
      items.length
        ? html`<table><thead><tr><th>At</th><th>Request</th><th>Status</th><th>Auth</th><th>Time</th></tr></thead><tbody>${items.map(requestRow)}</tbody></table>`
        : html`<p class="muted">No requests${f.path || f.status || f.auth ? ' match these filters' : ' yet'}.</p>`
    }`,
  )}
</section>`;
}
