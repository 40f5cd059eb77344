import type { Operation } from '../../spec/load.js';
import type { FuzzWorld } from './fuzz.world.js';
import { itemAt } from '../../shared/defined.js';

// Values of a valid request that must agree with each other or with the world, which the generators
// of each part alone cannot say: the query with the path, the body with the path and the signing app.

/**
 * Query combinations the parameters alone cannot say. A read by id takes its id again as `?id=` (the
 * published clients' habit): a valid request echoes the path's id there, as they do (any other value is
 * a 404 by design). A sell quote needs one of its two outlet parameters, and a currency the outlet pays in.
 */
export function fitQuery(
  op: Operation,
  world: FuzzWorld,
  pathParams: Record<string, string>,
  query: Array<[string, string]>,
): Array<[string, string]> {
  const [pathId] = op.parameters.filter((p) => p.in === 'path').map((p) => pathParams[p.name]);
  if (pathId !== undefined)
    return query.map(([name, value]) => (name === 'id' ? [name, pathId] : [name, value]));
  if (op.operationId === 'streamEvents') {
    // The stream is of one merchant: at most one of the three ways to name it.
    const [who] = query.filter(([name]) =>
      ['merchant_id', 'workspace_id', 'invoice_id'].includes(name),
    );
    return query.filter(
      ([name, value]) => name === 'events' || (name === who?.[0] && value === who[1]),
    );
  }
  if (op.operationId === 'listDeliveries') {
    // Two filters at once (one invoice, one merchant, one event name, one status) almost always list nothing, and
    // leave nothing to read or redeliver later: at most one of them.
    const [filter] = query.filter(([name]) =>
      ['invoice_id', 'merchant_id', 'event', 'status'].includes(name),
    );
    return query.filter(
      ([name]) =>
        !['invoice_id', 'merchant_id', 'event', 'status'].includes(name) || name === filter?.[0],
    );
  }
  if (op.operationId === 'getBuyQuote') {
    // One amount (two that differ are a 400 by design) in pesos (another currency is a 400 by design).
    const fitted = query.filter(([name, value]) => name !== 'currency' || value === 'PHP');
    const amounts = fitted.filter(([name]) => name === 'btc_amount' || name === 'amount');
    if (amounts.length === 1) return fitted;
    return [
      ...fitted.filter(([name]) => name !== 'btc_amount' && name !== 'amount'),
      ['btc_amount', amounts[0]?.[1] ?? '1'],
    ];
  }
  if (op.operationId !== 'getSellQuote') return query;
  const fitted = query.filter(([name, value]) => name !== 'currency' || value === 'PHP');
  return fitted.some(([name]) => name === 'payment_outlet' || name === 'outlet_id')
    ? fitted
    : [...fitted, ['payment_outlet', itemAt(world.outlets, 0)]];
}

/**
 * Path and body values that must agree with each other: a payment with a collector the invoice
 * accepts, a token revoked through the app that issued it.
 */
export function fitDraft(
  op: Operation,
  world: FuzzWorld,
  pathParams: Record<string, string>,
  body: unknown,
): { pathParams: Record<string, string>; body: unknown } {
  if (op.operationId === 'importSnapshot') {
    // A document the schema allows is almost never a consistent workspace: import one the sandbox exported.
    return { pathParams, body: world.snapshotDocument ?? body };
  }
  if (
    op.operationId === 'createWorkspace' &&
    body &&
    typeof body === 'object' &&
    'from_snapshot' in body
  ) {
    // From a snapshot of this run, or (none yet) a new empty workspace.
    const [snapshot] = world.pool('snapshot').slice(-1);
    const { from_snapshot: _, ...rest } = body as { from_snapshot?: string };
    return { pathParams, body: snapshot ? { ...rest, from_snapshot: snapshot } : rest };
  }
  if (
    ['createMerchant', 'createApp', 'createCustomer'].includes(op.operationId) &&
    body &&
    typeof body === 'object' &&
    'workspace_id' in body
  ) {
    // Made inside a workspace: a live one of the run (the newest), or the base data when none is live.
    const { workspace_id: asked, ...rest } = body as { workspace_id?: string };
    if (asked === undefined || world.workspaces.has(asked)) return { pathParams, body };
    const live = [...world.workspaces.keys()].at(-1);
    return { pathParams, body: live === undefined ? rest : { ...rest, workspace_id: live } };
  }
  if (pathParams.workspace_id !== undefined && !world.workspaces.has(pathParams.workspace_id)) {
    // A workspace's calls name a live workspace of the run (the newest): reset and deletion end the others.
    const live = [...world.workspaces.keys()].at(-1);
    if (live !== undefined) return { pathParams: { ...pathParams, workspace_id: live }, body };
  }
  if (op.operationId === 'getCryptoPayment') {
    // A read by id names a crypto payment the run has made (the newest), when there is one.
    const id = world.pool('cryptoPayment').at(-1);
    if (id !== undefined && pathParams.crypto_payment_id !== id)
      return { pathParams: { ...pathParams, crypto_payment_id: id }, body };
  }
  if (op.operationId === 'redeliverDelivery') {
    // A redelivery names a delivery the run has seen (the newest): a made-up id only ever finds nothing.
    const known = world.pool('delivery');
    const id = known.at(-1);
    if (id !== undefined && !known.includes(pathParams.delivery_id ?? '')) {
      return { pathParams: { ...pathParams, delivery_id: id }, body };
    }
  }
  if (op.operationId === 'revokeAppToken') {
    const app = world.tokenApp.get(pathParams.access_token ?? '');
    return { pathParams: app ? { ...pathParams, api_key: app } : pathParams, body };
  }
  if (op.operationId === 'payInvoice' && body && typeof body === 'object') {
    // A pending invoice with too little due to pay in part gives way to the open one with the most due.
    const open = world.movable('invoice');
    const most = open.reduce(
      (a, b) => ((world.invoiceDue.get(b) ?? 0) > (world.invoiceDue.get(a) ?? 0) ? b : a),
      open[0] ?? '',
    );
    const id = pathParams.invoice_id ?? '';
    if (
      open.includes(id) &&
      (world.invoiceDue.get(id) ?? 0) < 2 &&
      (world.invoiceDue.get(most) ?? 0) >= 2
    )
      pathParams = { ...pathParams, invoice_id: most };
    const collectors = world.invoiceCollectors.get(pathParams.invoice_id ?? '') ?? [];
    const asked = (body as { collector?: string }).collector ?? '';
    // Keep an accepted collector; otherwise one the invoice takes, over the counter where it can (a
    // wallet payment also needs a payer of the invoice's tenant with the money), picked by the generated one.
    const counter = collectors.filter((c) => c !== 'coins_peso_wallet');
    const choices = counter.length ? counter : collectors;
    const collector =
      collectors.includes(asked) || !choices.length
        ? asked
        : itemAt(choices, asked.length % choices.length);
    // Mostly a partial payment (the invoice stays pending, with a counter reference number to confirm
    // later), sometimes all that is due or more.
    const amount = mostlyPartial(
      world.invoiceDue.get(pathParams.invoice_id ?? ''),
      (body as { amount?: unknown }).amount,
      asked.length,
    );
    return { pathParams, body: withoutUndefined({ ...body, collector, amount }) };
  }
  if (op.operationId === 'confirmCounterPayment' && body && typeof body === 'object') {
    const { reference_number: given, amount } = body as {
      reference_number?: string;
      amount?: unknown;
    };
    // A reference of an invoice that can still be paid (the newest), when the run knows one.
    const open = world.movable('reference');
    const ref = given !== undefined && !open.includes(given) ? (open.at(-1) ?? given) : given;
    const invoice = world.referenceInvoice.get(ref ?? '') ?? '';
    return {
      pathParams,
      body: withoutUndefined({
        ...body,
        reference_number: ref,
        amount: mostlyPartial(world.invoiceDue.get(invoice), amount, String(amount).length),
      }),
    };
  }
  return { pathParams, body };
}

/**
 * A payment's amount: two times in three, one that leaves the invoice pending (half of what is due)
 * where the generated one would close it, so that later calls of the round still find it open.
 */
function mostlyPartial(due: number | undefined, amount: unknown, pick: number): unknown {
  // No amount pays all that is due: that too is made partial, two times in three.
  if (due === undefined || due < 2 || pick % 3 === 0) return amount;
  if (amount !== undefined && Number(amount) < due) return amount;
  return String(Math.floor(due / 2));
}

/**
 * The signing app's own wallets where the body names the first app's (a transfer, a conversion, a
 * payment request): another app's account is refused as not theirs.
 */
export function ownAccountsOf(world: FuzzWorld, app: number, body: unknown): unknown {
  const i = app % world.apps.length;
  if (i === 0 || !body || typeof body !== 'object' || Array.isArray(body)) return body;
  const accounts = itemAt(world.fixtures.developers, i).accounts;
  const swap = new Map([
    [world.ownAccount, accounts.find((a) => a.currency === 'PHP')?.id],
    [world.ownBtcAccount, accounts.find((a) => a.currency === 'BTC')?.id],
  ]);
  return Object.fromEntries(
    Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? (swap.get(v) ?? v) : v]),
  );
}

export function withoutUndefined(o: unknown): unknown {
  if (!o || typeof o !== 'object' || Array.isArray(o)) return o;
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
