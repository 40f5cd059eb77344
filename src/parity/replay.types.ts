/** What a replay needs: how a request authenticates, an entry's override, and the run's context. */
import type { Operation } from '../spec/load.js';
import type { HarEntry } from './har.js';
import type { Credentials, Target } from './target.js';

/** How a replayed request authenticates: as recorded, or one of the failures the corpus shows. */
export type AuthMode =
  | 'hmac'
  | 'token'
  | 'bearer'
  | 'none'
  | 'wrong-token'
  | 'bad-signature'
  | 'stale-nonce'
  | 'mfa'
  | 'non-business';

/** `parity/requests.json`: what an entry needs beyond what was recorded (a body the source left out, a failure). */
export interface EntryOverride {
  body?: unknown;
  auth?: AuthMode;
  /** Send the request this many times first (a duplicate's first use). */
  repeat?: number;
  /** The path to send instead of the recorded one (a doc's example code that drops the id its reference names). */
  path?: string;
  note: string;
}

export interface ReplayContext {
  target: Target;
  creds: Credentials;
  /** Map recorded ids, accounts, addresses and references to the workspace's (parity); off for replay. */
  mapIds: boolean;
  /**
   * Compare recorded callbacks with the ones the target sends, read from its delivery log through its
   * control API (parity, against a sandbox); off for replay, whose target is another service.
   */
  callbacks?: boolean;
  unique: () => string;
  /**
   * A recorded session's ids and ours (`recorded id → ours`): learnt from each answer (a create's `id`),
   * and from each resource provisioned for a recorded id, so that the session's later requests naming the
   * recorded id (in the path, the query or the body) reach the same resource: create → mark paid → read.
   * Not used for the committed corpus, whose entries are independent examples.
   */
  ids?: Map<string, string>;
  /**
   * Replay: each recorded `external_transaction_id` gets a fresh reference (`unique`), the same one
   * wherever the session names it again, so that a session can be replayed twice on one service.
   */
  freshReferences?: boolean;
  /**
   * Replay: recorded accounts, e-mails and phones in the fields parity maps (`account`, `target_address`,
   * `phone_number_load`…) become the target's own (`creds`), when the target's are known.
   */
  parties?: boolean;
  /** Honour Retry-After on 429/503: this many repeats, each wait at most maxWaitMs (replay). */
  retry?: { retries: number; maxWaitMs: number };
  /** Why an entry is not sent (money without the opt-in), or undefined to send it. */
  skip?: (entry: HarEntry, op: Operation | undefined) => string | undefined;
}
