import type { InvoiceStatus } from '../invoices/invoices.api.js';
import { formatMoney } from '../shared/money.js';
import { trimEnd } from '../shared/trim.js';

/**
 * Money for people: `PHP 1,234.50`: at least two decimals, more only when the amount has them.
 *
 * @example
 * displayMoney(123450000000n, 'PHP'); // 'PHP 1,234.50'
 */
export function displayMoney(units: bigint, currency: string): string {
  const [whole = '0', frac = ''] = formatMoney(units).split('.');
  const cents = trimEnd(frac, '0').padEnd(2, '0');
  return `${currency} ${groupThousands(whole)}.${cents}`;
}

/** `-1234567` → `-1,234,567`: a comma before each group of three digits from the right. */
function groupThousands(whole: string): string {
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = whole.slice(sign.length);
  let out = sign;
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return out;
}

/**
 * The wallet that holds a currency, as the pages name it: the peso wallet, else by the code the page
 * prints amounts in (`displayMoney`).
 *
 * @example
 * walletName('PHP'); // 'peso wallet'
 * walletName('BTC'); // 'BTC wallet'
 */
export function walletName(currency: string): string {
  return currency === 'PHP' ? 'peso wallet' : `${currency} wallet`;
}

/** `m:ss`, or `h:mm:ss` from an hour up (the inline script formats the same way). */
export function countdownText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

export function statusLabel(status: InvoiceStatus, partlyPaid: boolean): string {
  switch (status) {
    case 'pending':
      return partlyPaid ? 'Partly paid' : 'Awaiting payment';
    case 'fully_paid':
      return 'Paid';
    case 'expired':
      return 'Expired';
    case 'canceled':
      return 'Canceled';
  }
}

/** The page URL a reload or a redirect-after-POST returns to, keeping the chosen method and outlet. */
export function pageUrl(
  invoiceId: string,
  method?: string | null,
  outletId?: string | null,
): string {
  const q = new URLSearchParams();
  if (method) q.set('method', method);
  if (outletId) q.set('outlet', outletId);
  const qs = q.toString();
  return `/payment/invoice/${encodeURIComponent(invoiceId)}${qs ? `?${qs}` : ''}`;
}

/**
 * A reference number in groups of four, a lone last digit kept with the group before, so it can be read
 * out and typed at a counter.
 *
 * @example
 * groupReference('5247646406576'); // '5247 6464 06576'
 */
export function groupReference(ref: string): string {
  const groups = ref.match(/.{1,4}/g) ?? [];
  if (groups.length > 1 && groups[groups.length - 1]!.length === 1)
    groups[groups.length - 2] += groups.pop()!;
  return groups.join(' ');
}
