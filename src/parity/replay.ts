import type { Operation } from '../spec/load.js';
import type { Answer } from './compare.types.js';
import { header, requestText, type HarEntry } from './har.js';
import { parseLenient } from './lenient-parse.js';
import { chainIds, FORM, mapBody, mapForm } from './replay.mapping.js';
import { authOf, readAnswer, recordedFailure, send, type Outgoing } from './replay.send.js';
import type { AuthMode, EntryOverride, ReplayContext } from './replay.types.js';
import { provisionBuyOrder } from './target.js';

export type { AuthMode, EntryOverride, ReplayContext } from './replay.types.js';
export { learnIds } from './replay.mapping.js';
export { authOf, readAnswer, recordedFailure } from './replay.send.js';

const UNKNOWN_ID = '0'.repeat(32);
type ResourceKind = 'buyorder' | 'invoice' | 'sellorder' | 'crypto-route';
const RESOURCES: Array<{ rx: RegExp; kind: ResourceKind }> = [
  { rx: /\/buyorder\/([^/?]+)/, kind: 'buyorder' },
  { rx: /\/crypto-routes\/([^/?]+)/, kind: 'crypto-route' },
  { rx: /\/invoices\/([^/?]+)/, kind: 'invoice' },
  { rx: /\/sellorder\/([^/?]+)/, kind: 'sellorder' },
];

async function provision(ctx: ReplayContext, kind: ResourceKind): Promise<string> {
  const base = ctx.target.baseUrl;
  if (kind === 'buyorder') return provisionBuyOrder(ctx.target, ctx.creds);
  if (kind === 'crypto-route') {
    const route = await readAnswer(
      await send(ctx, {
        method: 'POST',
        url: `${base}/v3/crypto-routes/`,
        body: JSON.stringify({ monitored_address: ctx.unique(), stock_address: ctx.unique() }),
        type: 'application/json',
        auth: 'hmac',
      }),
    );
    const id = (route.body as { id?: string } | null)?.id;
    if (route.status !== 201 || !id)
      throw new Error(`could not create a crypto route: ${route.status}`);
    return id;
  }
  const [url, body, auth]: [string, unknown, AuthMode] =
    kind === 'invoice'
      ? [
          `${base}/v3/invoices/`,
          { amount: '20', currency: 'PHP', external_transaction_id: ctx.unique() },
          'token',
        ]
      : [
          `${base}/v1/sellorder`,
          {
            amount: '5',
            currency: 'PHP',
            payment_outlet: 'coins_transfer',
            pay_with_wallet: 'PHP',
            target_address: ctx.creds.customerEmail,
            external_transaction_id: ctx.unique(),
          },
          'hmac',
        ];
  const answer = await readAnswer(
    await send(ctx, {
      method: 'POST',
      url,
      body: JSON.stringify(body),
      type: 'application/json',
      auth,
    }),
  );
  const id = (answer.body as Record<string, { id?: string }>)?.[
    kind === 'invoice' ? 'invoice' : 'order'
  ]?.id;
  if (answer.status >= 300 || !id)
    throw new Error(
      `could not create a ${kind} to replay against: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`,
    );
  return id;
}

/**
 * The recorded URL under the target's base: path and query as recorded, a session's known ids chained,
 * and (parity) a recorded id it does not know mapped to a resource provisioned for it.
 */
async function targetUrl(
  e: HarEntry,
  ctx: ReplayContext,
  ids: Map<string, string> | undefined,
): Promise<string> {
  const u = new URL(e.request.url.replace(/\{[a-z_]+\}/g, UNKNOWN_ID));
  let rest = chainIds(`${u.pathname}${u.search}`, ids);
  if (ctx.mapIds) {
    for (const r of RESOURCES) {
      const id = r.rx.exec(u.pathname)?.[1];
      if (!id || id === UNKNOWN_ID || ids?.has(id)) continue;
      const ours = await provision(ctx, r.kind);
      ids?.set(id, ours); // the session's later requests reach the same resource
      rest = rest.split(id).join(ours);
    }
  }
  return `${ctx.target.baseUrl}${rest}`;
}

/** The entry as it is replayed: at the override's path when it names one. */
export function replayedAt(e: HarEntry, override?: EntryOverride): HarEntry {
  if (!override?.path) return e;
  return { ...e, request: { ...e.request, url: new URL(override.path, e.request.url).href } };
}

/** Replay one recorded request against the target, re-authenticated, and read the answer. */
export async function replayEntry(
  e: HarEntry,
  op: Operation | undefined,
  ctx: ReplayContext,
  override?: EntryOverride,
  /** A recorded session's ids (ReplayContext.ids), or undefined for an independent entry. */
  ids?: Map<string, string>,
): Promise<Answer> {
  const url = await targetUrl(replayedAt(e, override), ctx, ids);
  const post = e.request.postData;
  const type = header(e.request.headers, 'content-type') ?? post?.mimeType;
  let body: string | undefined =
    override?.body !== undefined ? JSON.stringify(override.body) : requestText(e);
  const mapping = ctx.mapIds || ctx.freshReferences || ctx.parties || (ids?.size ?? 0) > 0;
  if (mapping && body !== undefined && override?.body === undefined && FORM.test(type ?? '')) {
    body = mapForm(body, ctx, ids);
  } else if (mapping && body !== undefined) {
    const parsed =
      override?.body ??
      (parseLenient(body).ok ? (parseLenient(body) as { value: unknown }).value : undefined);
    if (parsed !== undefined && typeof parsed === 'object')
      body = JSON.stringify(mapBody(parsed, '', ctx, ctx.unique(), ids));
    else if (!type?.includes('json') && body.includes('=')) body = mapForm(body, ctx, ids);
  }
  if (body === '' || (body === undefined && override?.body === undefined))
    body = requestText(e) || undefined;
  if (['GET', 'HEAD'].includes(e.request.method)) body = undefined; // fetch sends none (errors.har#3 records one)
  const auth = override?.auth ?? recordedFailure(e) ?? authOf(e, op);
  const spelling = e.request.headers.some((h) => /^access-(key|signature)$/i.test(h.name))
    ? 'dash'
    : 'underscore';
  const out: Outgoing = { method: e.request.method, url, body, type, auth, spelling };
  for (let i = 0; i < (override?.repeat ?? 0); i++) await (await send(ctx, out)).arrayBuffer();
  return readAnswer(await send(ctx, out));
}
