import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNTS_READ,
  accountsAnswer,
  fakeService,
  har,
  MARKETS_READ,
  replay,
} from './replay.e2e.test-support.js';

/**
 * `paysandbox replay` keeps the contract suite's preflight (docs/parity.md, "Replay"): a wrong base URL,
 * a host that does not answer, refused credentials each stop it with one line and exit 2 before any entry
 * is replayed, against fake services on 127.0.0.1 whose answers each test writes.
 */

/** A port on 127.0.0.1 that nothing listens on (a server opened there and closed again). */
async function closedPort(): Promise<number> {
  const closed = createServer();
  const port = await new Promise<number>((resolve) =>
    closed.listen(0, '127.0.0.1', () => resolve((closed.address() as AddressInfo).port)),
  );
  await new Promise((r) => closed.close(r));
  return port;
}

describe('replay preflight: one line and exit 2 before any entry is replayed', () => {
  it('refuses a base URL with a path and names the base to use, sending nothing', async () => {
    const svc = await fakeService(() => accountsAnswer);
    const file = har([ACCOUNTS_READ, ACCOUNTS_READ]);
    const { code, out } = await replay(file, `${svc.url}/v3/invoices/`);
    expect(out.trim()).toBe(
      `paysandbox replay: preflight failed: the base URL must be scheme, host and port only, got ${svc.url}/v3/invoices/ — use ${svc.url}`,
    );
    expect(code).toBe(2);
    expect(svc.seen).toHaveLength(0);
  });

  it('refuses a host that does not answer once, not with one "fetch failed" per entry', async () => {
    const port = await closedPort();
    const file = har([ACCOUNTS_READ, ACCOUNTS_READ, ACCOUNTS_READ]);
    const { code, out } = await replay(file, `http://127.0.0.1:${port}`);
    expect(out.trim()).toBe(
      `paysandbox replay: preflight failed: cannot reach http://127.0.0.1:${port}: connection refused — is the server running on that port? (ECONNREFUSED)`,
    );
    expect(code).toBe(2);
  });

  it('refuses HMAC credentials the target refuses once, not as N differences', async () => {
    const svc = await fakeService(() => ({
      status: 401,
      body: {
        errors: { detail: 'Incorrect access key' },
        error_codes: ['invalid_access_key'],
      },
    }));
    const file = har([ACCOUNTS_READ, ACCOUNTS_READ, ACCOUNTS_READ]);
    const { code, out } = await replay(file, svc.url);
    expect(out.trim()).toBe(
      `paysandbox replay: preflight failed: CONTRACT_API_KEY is not known to ${svc.url}: a signed GET /v3/crypto-accounts/ answered 401 invalid_access_key (Incorrect access key)`,
    );
    expect(code).toBe(2);
    expect(svc.seen).toHaveLength(1); // the preflight's read, no entry
  });

  it('refuses a merchant token the target refuses, with the contract suite’s line', async () => {
    const svc = await fakeService((r) =>
      r.headers.authorization === 'Token staging-token'
        ? {
            status: 401,
            body: { errors: { detail: 'Invalid token.' }, error_codes: ['invalid_token'] },
          }
        : accountsAnswer,
    );
    const file = har([{ ...MARKETS_READ, path: '/v3/invoices/', auth: 'token' }]);
    const { code, out } = await replay(file, svc.url);
    expect(out.trim()).toBe(
      `paysandbox replay: preflight failed: CONTRACT_MERCHANT_TOKEN is refused by ${svc.url}: GET /v3/invoices/ answered 401 invalid_token (Invalid token.)`,
    );
    expect(code).toBe(2);
  });
});
