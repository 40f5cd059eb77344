import {
  poolOfKey,
  SETTLES_BY_STATUS,
  STATEFUL,
  TRANSFER_DELAY_MS,
  type PoolName,
} from './fuzz.pools.js';
import type { FuzzWorld } from './fuzz.world.js';

/** The workspace `createWorkspace` answers, as far as the fuzzer uses it. */
interface WorkspaceAnswer {
  id: string;
  app?: {
    api_key: string;
    api_secret: string;
    mfa_whitelisted: boolean;
    owner: { accounts: Array<{ id: string; currency: string }> };
  };
  customer?: { email: string };
}

/**
 * Remember ids found in an answer, by the name of the object that holds them: what a create answers
 * joins its pool in flight, what is known settled stays for reads only, and what an answer says of
 * invoices, tokens, workspaces, snapshots and the sandbox clock goes into the world.
 */
export function harvestAnswer(world: FuzzWorld, operationId: string, body: unknown): void {
  const ws =
    operationId === 'createWorkspace'
      ? (body as { workspace?: WorkspaceAnswer }).workspace
      : undefined;
  const account = ws?.app?.owner.accounts.find((a) => a.currency === 'PHP')?.id;
  if (ws?.app && ws.customer && account !== undefined) {
    const app = {
      key: ws.app.api_key,
      secret: ws.app.api_secret,
      whitelisted: ws.app.mfa_whitelisted,
    };
    world.workspaces.set(ws.id, { app, account, customerEmail: ws.customer.email });
  }
  // What a create answers is new (and often still pending); what a list or read answers may be old history.
  // A triggered event answers the (often new, still pending) invoice it happened to.
  const creates = /^(create|place)/.test(operationId) || operationId === 'triggerEvent';
  if (/Clock$/.test(operationId) && typeof (body as { now?: unknown })?.now === 'string')
    world.clock((body as { now: string }).now);
  const add = (pool: PoolName, id: string, o: Record<string, unknown>) => {
    const status = typeof o.status === 'string' ? o.status : undefined;
    // A buy order can be paid or canceled only while `pending_payment`.
    const stillPending = pool === 'buyOrder' ? 'pending_payment' : 'pending';
    const knownSettled =
      (SETTLES_BY_STATUS.has(pool) || pool === 'buyOrder') &&
      status !== undefined &&
      status !== stillPending;
    if (knownSettled) return void (world.add(pool, id), world.settle(pool, id));
    if (creates && STATEFUL.has(pool)) world.markInFlight(pool, id);
    else world.add(pool, id);
    if (pool === 'invoice' && typeof o.expires_at === 'string')
      world.due(pool, id, Date.parse(o.expires_at));
    if (pool === 'transfer' && typeof o.created_at === 'string')
      world.due(pool, id, Date.parse(o.created_at) + TRANSFER_DELAY_MS);
    if (pool === 'invoice' && typeof o.amount_due === 'string')
      world.invoiceDue.set(id, Number(o.amount_due));
    if (pool === 'invoice' && Array.isArray(o.supported_payment_collectors))
      world.invoiceCollectors.set(id, o.supported_payment_collectors as string[]);
    if (pool === 'invoice' && typeof o.current_payment_reference_number === 'string')
      world.referenceInvoice.set(o.current_payment_reference_number, id);
  };
  if (operationId === 'exportSnapshot') world.snapshotDocument = body;
  // An address route is answered bare (no envelope key to walk under).
  if (operationId === 'createCryptoRoute') {
    const id = (body as { id?: unknown }).id;
    if (typeof id === 'string') world.add('cryptoRoute', id);
  }
  if (operationId === 'createSnapshot' || operationId === 'importSnapshot') {
    const id = (body as { snapshot?: { id?: unknown } }).snapshot?.id;
    if (typeof id === 'string') world.add('snapshot', id);
  }
  const walk = (v: unknown, parent: string) => {
    if (Array.isArray(v)) return v.forEach((x) => walk(x, parent));
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    const id = typeof o.id === 'string' ? o.id : undefined;
    const pool = id ? poolOfKey(parent, operationId) : undefined;
    if (id && pool) add(pool, id, o);
    if (typeof o.api_key === 'string') world.add('apiKey', o.api_key);
    if (typeof o.current_payment_reference_number === 'string')
      world.add('reference', o.current_payment_reference_number);
    if (typeof o.reference_number === 'string') world.add('reference', o.reference_number);
    // A workspace's customer is of that tenant only (kept in `workspaces`): not a payer for the base data.
    if (typeof o.email === 'string' && parent === 'customer' && operationId !== 'createWorkspace')
      world.add('email', o.email);
    for (const [k, x] of Object.entries(o)) if (x && typeof x === 'object') walk(x, k);
  };
  walk(body, '');
}
