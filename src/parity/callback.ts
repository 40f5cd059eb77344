import type { Answer } from './compare.js';
import type { HarEntry, RecordedAnswer } from './har.js';
import { parseLenient } from './lenient-parse.js';
import type { Target } from './target.js';

/** The events the sandbox sends (`EventName` in openapi/openapi.yaml). */
const EVENTS = new Set([
  'invoice.created',
  'invoice.updated',
  'invoice.fully_paid',
  'invoice.payment_reference_number_generated',
]);

/** A recorded callback: the service POSTs an invoice event to the merchant (`_direction: coins-to-merchant`). */
export const isCallback = (e: HarEntry) => e._direction === 'coins-to-merchant';

interface RecordedEvent {
  name?: unknown;
  data?: { amount?: unknown; currency?: unknown; external_transaction_id?: unknown };
}

/**
 * What was recorded for a callback is the request the service sent: its body is what ours must look like.
 * No status was recorded (the merchant's answer is the merchant's).
 */
export function recordedCallback(e: HarEntry): RecordedAnswer {
  const text = e.request.postData?.text ?? '';
  const parsed = parseLenient(text);
  return {
    status: undefined,
    body: parsed.ok
      ? { kind: 'json', value: parsed.value, truncated: parsed.truncated, partial: false }
      : { kind: 'text', text: text.trim(), partial: false },
    typeAmbiguous: e._typeAmbiguous ?? [],
  };
}

async function json(
  t: Target,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await t.fetch(`${t.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: res.status, body: text };
  }
}

const str = (v: unknown) =>
  typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;

/**
 * The callback the sandbox sends for the recorded one: an invoice created in the run's workspace with the
 * recorded amount, currency and external id, then the recorded event's body as the sandbox's delivery log
 * holds it (the exact JSON it POSTs to the merchant). An event the sandbox does not know (the docs'
 * placeholder `invoice.name`) is compared with `invoice.created`; another known event is sent through the
 * control API (`POST /_sandbox/invoices/{id}/callbacks`) with the invoice's data as it is.
 */
export async function sandboxCallback(
  e: HarEntry,
  target: Target,
  merchantToken: string,
  unique: () => string,
): Promise<Answer> {
  const rec = recordedCallback(e).body;
  const event = ((rec.kind === 'json' ? rec.value : {}) as { event?: RecordedEvent }).event ?? {};
  const data = event.data ?? {};
  const name = typeof event.name === 'string' && EVENTS.has(event.name) ? event.name : undefined;
  const invoice = {
    amount: str(data.amount) ?? '10',
    currency: str(data.currency) ?? 'PHP',
    external_transaction_id: str(data.external_transaction_id) ?? unique(),
  };
  const auth = { authorization: `Token ${merchantToken}` };
  let created = await json(target, 'POST', '/v3/invoices/', auth, invoice);
  if (created.status >= 400 && created.status < 500)
    // The external id is taken in this workspace (a session that recorded it twice): a fresh one.
    created = await json(target, 'POST', '/v3/invoices/', auth, {
      ...invoice,
      external_transaction_id: unique(),
    });
  const id = (created.body as { invoice?: { id?: string } } | null)?.invoice?.id;
  if (created.status !== 201 || !id)
    throw new Error(
      `could not create the invoice of the callback: ${created.status} ${JSON.stringify(created.body).slice(0, 200)}`,
    );
  const wanted = name ?? 'invoice.created';
  const control = target.controlHeaders;
  if (wanted !== 'invoice.created') {
    const fired = await json(target, 'POST', `/_sandbox/invoices/${id}/callbacks`, control, {
      event: wanted,
      force: true,
    });
    if (fired.status !== 201)
      throw new Error(`could not send ${wanted}: ${fired.status} ${JSON.stringify(fired.body)}`);
  }
  const list = await json(
    target,
    'GET',
    `/_sandbox/deliveries?invoice_id=${id}&event=${encodeURIComponent(wanted)}`,
    control,
  );
  const delivery = (list.body as { deliveries?: Array<{ body?: unknown }> } | null)
    ?.deliveries?.[0];
  if (list.status !== 200 || !delivery?.body)
    throw new Error(`the sandbox logged no ${wanted} delivery for invoice ${id}: ${list.status}`);
  return { status: 200, body: delivery.body };
}
