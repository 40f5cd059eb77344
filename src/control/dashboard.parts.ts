import { html } from 'hono/html';
import type { TenantClockView } from './dashboard.data.js';

/** Pieces the dashboard's sections share. */

/** A shell command in a disclosure, with a Copy button (the text stays selectable where the clipboard is refused). */
export function curlBlock(id: string, summary: string, hidden: string, command: string) {
  return html`<details class="curl" id="d-${id}"><summary>${summary}<span class="sr-only"> ${hidden}</span></summary>
    <pre id="${id}">${command}</pre>
    <button type="button" id="copy-${id}" data-action="copy" data-target="${id}" aria-label="Copy ${summary} ${hidden}">Copy</button></details>`;
}

/** The invoice id links to its hosted page; "JSON" to the control API's view of it (no merchant token needed). */
export const invoiceLinks = (id: string, paymentUrl: string | null) =>
  html`${paymentUrl ? html`<a href="${paymentUrl}" data-testid="invoice-page-link"><code>${id}</code></a>` : html`<code>${id}</code>`}
    <a href="/_sandbox/invoices/${encodeURIComponent(id)}" data-json data-testid="invoice-json-link" aria-label="JSON of invoice ${id}">JSON</a>`;

/** A keyboard-reachable scroll region (tabindex + role + name), refreshed in place by the live poll. */
export const liveRegion = (id: string, label: string, body: unknown) =>
  html`<div class="scroll" id="${id}" data-live tabindex="0" role="region" aria-label="${label}">${body}</div>`;

/** A workspace's time beside its object; nothing for the base data (it runs on the sandbox clock shown above). */
export function tenantClockNote(c: TenantClockView | null) {
  if (!c) return '';
  return html`<br><small class="muted" data-testid="workspace-clock">workspace time ${c.now} (offset ${c.offsetSeconds} s)</small>`;
}
