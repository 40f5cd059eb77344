/** Copy-as-curl commands shown by the dashboard: what a tester pastes into a terminal or a CI script. */

/** POSIX single quotes: safe for any value (a quote inside becomes '\''). */
export const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

function curl(method: string, url: string, headers: string[], body?: unknown): string {
  const parts = [`curl -sS -X ${method} ${shellQuote(url)}`];
  for (const h of headers) parts.push(`-H ${shellQuote(h)}`);
  if (body !== undefined)
    parts.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(body))}`);
  return parts.join(' \\\n  ');
}

const controlHeaders = (token: string | null) => (token ? [`X-Sandbox-Token: ${token}`] : []);

/** Create an invoice as a merchant does: the merchant API token, the public API. */
export function createInvoiceCurl(baseUrl: string, merchantToken: string): string {
  return curl('POST', `${baseUrl}/v1/invoices/`, [`Authorization: Token ${merchantToken}`], {
    amount: 100,
    currency: 'PHP',
    external_transaction_id: 'order-1',
  });
}

/** Pay an invoice through the control API (what the dashboard's pay buttons do). */
export function payInvoiceCurl(
  baseUrl: string,
  token: string | null,
  invoiceId: string,
  collector: string,
  amount?: string,
): string {
  return curl(
    'POST',
    `${baseUrl}/_sandbox/invoices/${encodeURIComponent(invoiceId)}/payments`,
    controlHeaders(token),
    amount === undefined ? { collector } : { collector, amount },
  );
}

/** Read any invoice's JSON without its merchant's token. */
export function getInvoiceCurl(baseUrl: string, token: string | null, invoiceId: string): string {
  return curl(
    'GET',
    `${baseUrl}/_sandbox/invoices/${encodeURIComponent(invoiceId)}`,
    controlHeaders(token),
  );
}
