import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot, type LoadedSpec } from '../spec/load.js';
import { isCallback, recordedCallback, sandboxCallback } from './callback.js';
import { compareAnswer, type Difference } from './compare.js';
import { recordedAnswer, type LoadedEntry } from './har.js';
import { operationMatcher, type Deviation } from './operations.js';
import {
  learnIds,
  replayedAt,
  replayEntry,
  type EntryOverride,
  type ReplayContext,
} from './replay.js';
import { freshCredentials, type Target } from './target.js';

export type Verdict = 'accepted' | 'gap' | 'unexplained';

export interface JudgedDifference extends Difference {
  verdict: Verdict;
  reason?: string;
}

export type EntryStatus = 'match' | 'accepted' | 'gap' | 'unexplained' | 'skipped' | 'error';

export interface EntryResult {
  key: string;
  family: string;
  method: string;
  url: string;
  evidence: string;
  /** The document's operation the request reaches; undefined when none does. */
  operationId?: string;
  status: EntryStatus;
  /** Why the entry was not replayed, or the error that stopped it. */
  note?: string;
  /** Our answer's body, trimmed, when its status is not the recorded one: why ours failed (or did not). */
  ours?: string;
  differences: JudgedDifference[];
}

export interface KnownGap {
  entry: string;
  reason: string;
}

export interface ParityInputs {
  /** `parity/known-gaps.json`: whole entries that differ for a reason being fixed. */
  gaps: KnownGap[];
  /** `parity/requests.json`: per entry, what the source left out of the request. */
  overrides: Record<string, EntryOverride>;
}

function readJson<T>(path: string, fallback: T): T {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : fallback;
}

/** The committed known gaps and request overrides (parity/known-gaps.json, parity/requests.json). */
export function committedInputs(root = packageRoot()): ParityInputs {
  const gaps = readJson<{ gaps: KnownGap[] }>(join(root, 'parity', 'known-gaps.json'), {
    gaps: [],
  }).gaps;
  const overrides = readJson<{ entries: Record<string, EntryOverride> }>(
    join(root, 'parity', 'requests.json'),
    { entries: {} },
  ).entries;
  return { gaps, overrides };
}

const pathMatches = (pattern: string, path: string) =>
  new RegExp(`^${pattern.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\*/g, '[^.]*')}$`).test(path);

function judge(
  key: string,
  d: Difference,
  deviations: Deviation[],
  gap: KnownGap | undefined,
): JudgedDifference {
  const dev = deviations.find(
    (x) =>
      x.kind === d.kind &&
      pathMatches(x.path, d.path) &&
      (x.entries === undefined || x.entries.includes(key)),
  );
  if (dev) return { ...d, verdict: 'accepted', reason: dev.reason };
  if (gap) return { ...d, verdict: 'gap', reason: gap.reason };
  return { ...d, verdict: 'unexplained' };
}

function statusOf(diffs: JudgedDifference[]): EntryStatus {
  if (diffs.length === 0) return 'match';
  if (diffs.some((d) => d.verdict === 'unexplained')) return 'unexplained';
  return diffs.some((d) => d.verdict === 'gap') ? 'gap' : 'accepted';
}

/**
 * Replay every entry against the target in one fresh workspace and judge each difference: accepted
 * (an `x-fidelity` deviation of its operation), a known gap, or unexplained (docs/parity.md).
 */
export async function runParity(
  entries: LoadedEntry[],
  target: Target,
  spec: LoadedSpec,
  inputs: ParityInputs,
): Promise<EntryResult[]> {
  const creds = await freshCredentials(target);
  let n = 0;
  const run = Date.now().toString(36);
  return replayAll(
    entries,
    {
      target,
      creds,
      mapIds: true,
      callbacks: true,
      unique: () => `parity-${run}-${++n}`,
      ids: new Map(),
    },
    spec,
    inputs,
  );
}

const OURS_MAX = 300;

/** A body as one line of at most OURS_MAX characters. */
function trimmed(body: unknown): string {
  const text = (typeof body === 'string' ? body : (JSON.stringify(body) ?? '')).replace(
    /\s+/g,
    ' ',
  );
  return text.length > OURS_MAX ? `${text.slice(0, OURS_MAX - 1)}…` : text;
}

/** Why an entry that is not a call to the API is not replayed. */
function skipNote(direction: string): string {
  if (direction === 'browser-redirect-to-merchant')
    return "a browser's GET to the merchant's redirect URL, not a call to the API (the hosted page sends the browser there; the merchant answers it)";
  if (direction === 'coins-to-merchant')
    return 'a callback the service sends: compared by paysandbox parity, which reads the delivery log of a sandbox; replay cannot';
  return `not a call to the API (${direction})`;
}

/** Replay the entries in order with the context's credentials, and judge each answer. */
export async function replayAll(
  entries: LoadedEntry[],
  ctx: ReplayContext,
  spec: LoadedSpec,
  inputs: ParityInputs,
): Promise<EntryResult[]> {
  const matcher = operationMatcher(spec);
  const results: EntryResult[] = [];
  for (const { key, family, entry, corpus } of entries) {
    const url = new URL(replayedAt(entry, inputs.overrides[key]).request.url.replace(/[{}]/g, ''));
    const op = matcher.match(entry.request.method, url.pathname);
    const base = {
      key,
      family,
      method: entry.request.method,
      url: entry.request.url,
      evidence: entry._evidence ?? 'unknown',
      operationId: op?.operationId,
    };
    const callback = isCallback(entry) && ctx.callbacks === true;
    if (entry._direction && !callback) {
      results.push({
        ...base,
        status: 'skipped',
        note: skipNote(entry._direction),
        differences: [],
      });
      continue;
    }
    const skip = ctx.skip?.(entry, op);
    if (skip) {
      results.push({ ...base, status: 'skipped', note: skip, differences: [] });
      continue;
    }
    const gap = inputs.gaps.find((g) => g.entry === key);
    try {
      const [recorded, answer] = callback
        ? [
            recordedCallback(entry),
            await sandboxCallback(entry, ctx.target, ctx.creds.merchantToken, ctx.unique),
          ]
        : [
            recordedAnswer(entry),
            await replayEntry(entry, op, ctx, inputs.overrides[key], corpus ? undefined : ctx.ids),
          ];
      // A recorded session's later requests name the ids its creates answered: ours from now on.
      if (!corpus && ctx.ids && recorded.body.kind === 'json')
        learnIds(recorded.body.value, answer.body, ctx.ids);
      const diffs = compareAnswer(recorded, answer).map((d) =>
        // The deviations were written about the corpus' entries: a user's HAR is not excused by them.
        judge(key, d, op && corpus ? matcher.deviations(op.operationId) : [], gap),
      );
      const statusDiffers = diffs.some((d) => d.kind === 'status');
      results.push({
        ...base,
        status: statusOf(diffs),
        ...(statusDiffers ? { ours: trimmed(answer.body) } : {}),
        differences: diffs,
      });
    } catch (err) {
      results.push({
        ...base,
        status: gap ? 'gap' : 'error',
        note: (err as Error).message,
        differences: [],
      });
    }
  }
  return results;
}

/** Known gaps whose entry no longer differs (or does not exist): to be removed from the list. */
export function staleGaps(results: EntryResult[], gaps: KnownGap[]): KnownGap[] {
  return gaps.filter((g) => {
    const r = results.find((x) => x.key === g.entry);
    return !r || !(r.status === 'gap' || r.differences.some((d) => d.verdict === 'gap'));
  });
}
