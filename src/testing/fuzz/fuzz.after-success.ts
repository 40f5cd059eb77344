import { itemAt, required } from '../../shared/defined.js';
import type { Draft, WireRequest } from './fuzz.request.js';
import type { FuzzWorld } from './fuzz.world.js';

/** The faults the run has made and not cleared: how many, and whether one may inject errors. */
export interface LiveFaults {
  live: number;
  unsafe: boolean;
}

/**
 * What a 2xx to a generated request changes in what the fuzzer knows: the nonce a key accepted (for
 * replays), what is gone for good (faults, workspaces, revoked tokens), new access tokens, the pools
 * after a reset, and the faults still live.
 */
export function afterSuccess(
  world: FuzzWorld,
  faults: LiveFaults,
  d: Draft,
  wire: WireRequest,
  answer: { access_token?: unknown; expires_at?: unknown } | undefined,
): void {
  const id = d.op.operationId;
  const param = (name: string) => required(d.pathParams[name], `the path parameter ${name}`);
  if (d.op.auth === 'hmac' && d.auth === 'good') {
    const app = itemAt(world.apps, d.app % world.apps.length);
    world.accepted.set(app.key, {
      nonce: required(wire.headers['ACCESS_NONCE'], 'the nonce of the signed request'),
      method: wire.method,
      path: wire.url,
      body: wire.body ?? '',
    });
  }
  if (id === 'resetAppNonce') world.accepted.delete(param('api_key'));
  if (id === 'deleteWorkspace') world.workspaces.delete(param('workspace_id'));
  // Gone for good: no later valid request may count on them.
  if (id === 'deleteFault') world.forget('fault', param('fault_id'));
  if (id === 'clearFaults') world.forgetAll('fault');
  if (id === 'revokeAppToken') world.forget('accessToken', param('access_token'));
  if (id === 'createAppToken' && typeof answer?.access_token === 'string')
    world.addToken(param('api_key'), answer.access_token, String(answer.expires_at));
  if (id === 'resetSandbox') {
    world.accepted.clear();
    world.seedPools();
  }
  if (id === 'createFault') {
    faults.live++;
    faults.unsafe ||= d.kind !== 'valid';
  }
  if (id === 'clearFaults' || id === 'resetSandbox') faults.live = 0;
  if (id === 'clearFaults' || id === 'resetSandbox') faults.unsafe = false;
}
