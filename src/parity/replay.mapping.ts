/**
 * A recorded request's values made ours: the session's ids learnt from earlier answers, and (parity)
 * the accounts, addresses, e-mails and references of the workspace replayed against.
 */
import type { ReplayContext } from './replay.types.js';

/** Learn the ids of an answer: where the recorded body has an `id` (or `…_id`) string, ours at that path. */
export function learnIds(recorded: unknown, ours: unknown, ids: Map<string, string>): void {
  if (!recorded || !ours || typeof recorded !== 'object' || typeof ours !== 'object') return;
  if (Array.isArray(recorded) || Array.isArray(ours)) return; // list items are other records
  const o = ours as Record<string, unknown>;
  for (const [k, v] of Object.entries(recorded as Record<string, unknown>)) {
    const mine = o[k];
    if (
      /^(id|.+_id)$/.test(k) &&
      k !== 'external_transaction_id' &&
      typeof v === 'string' &&
      typeof mine === 'string' &&
      v.length >= 2 &&
      v !== mine &&
      !ids.has(v)
    )
      ids.set(v, mine);
    else learnIds(v, mine, ids);
  }
}

/** A recorded string with the session's known ids replaced by ours. */
export function chainIds(s: string, ids: Map<string, string> | undefined): string {
  if (!ids?.size) return s;
  let out = s;
  for (const [rec, ours] of ids) if (out.includes(rec)) out = out.split(rec).join(ours);
  return out;
}

export function mapBody(
  value: unknown,
  key: string,
  ctx: ReplayContext,
  uniq: string,
  ids: Map<string, string> | undefined,
): unknown {
  const { accounts, customerEmail, customerPhone } = ctx.creds;
  if (Array.isArray(value)) return value.map((v) => mapBody(v, key, ctx, uniq, ids));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, mapBody(v, k, ctx, uniq, ids)]),
    );
  }
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  const s = String(value);
  const known = ids?.get(s);
  if (known !== undefined) return known;
  if (!ctx.mapIds) return value;
  const named = /^<(\w+) account id>$/.exec(s)?.[1];
  if (/^(account|source_account|receiving_account)$/.test(key))
    return accounts[named ?? 'PHP'] ?? accounts.PHP;
  if (key === 'target_account') return accounts[named ?? 'BTC'] ?? accounts.BTC ?? accounts.PHP;
  if (key === 'target_wallet') return accounts.BTC ?? accounts.PHP;
  if (/^(target_address|payer_contact_info)$/.test(key)) return customerEmail;
  if (/phone/.test(key)) return customerPhone;
  if (key === 'external_transaction_id') return uniq;
  return value;
}

export const FORM = /application\/x-www-form-urlencoded/i;

/** A form body with its values mapped like a JSON body's (accounts, e-mails, the session's ids). */
export function mapForm(
  body: string,
  ctx: ReplayContext,
  ids: Map<string, string> | undefined,
): string {
  const uniq = ctx.unique();
  const out = new URLSearchParams();
  for (const [k, v] of new URLSearchParams(body))
    out.append(k, String(mapBody(v, k, ctx, uniq, ids)));
  return out.toString();
}
