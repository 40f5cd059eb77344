import { describe, expect, it } from 'vitest';
import {
  ACCOUNTS_READ,
  accountsAnswer,
  fakeService,
  gaps,
  har,
  type Handler,
  MARKETS_READ,
  notFound,
  path,
  type RecordedExchange,
  replay,
  TARGET_ACCOUNTS,
} from './replay.e2e.test-support.js';

/**
 * `paysandbox replay` keeps the contract suite's safety rules (docs/parity.md, "Replay"): entries that
 * move money only with its opt-in (recorded accounts and e-mails mapped to the target's; the skipped
 * ones listed with the reason), and its pacing of requests and waiting out a 429's Retry-After.
 */

const TRANSFER_ID = 'e5'.repeat(16);
const TRANSFER = {
  id: TRANSFER_ID,
  account: 'c3'.repeat(16),
  amount: '5',
  status: 'success',
};
const MONEY_SESSION: RecordedExchange[] = [
  ACCOUNTS_READ,
  {
    method: 'POST',
    path: '/v3/transfers/',
    status: 201,
    request: {
      account: 'c3'.repeat(16),
      target_address: 'ws-01a2@customer.example.ph',
      amount: '5',
    },
    response: { transfer: TRANSFER },
  },
  {
    method: 'GET',
    path: `/v3/transfers/${TRANSFER_ID}`,
    status: 200,
    response: { transfer: TRANSFER },
  },
];

/** A staging that knows only its own accounts and customer, and answers transfers. */
function stagingWithTransfers(email = 'juan@staging.example'): Handler {
  const made = new Map<string, unknown>();
  return (r) => {
    const p = path(r);
    if (p === '/v3/crypto-accounts/') return accountsAnswer;
    if (r.method === 'POST' && p === '/v3/transfers/') {
      const body = JSON.parse(r.body) as { account: string; target_address: string };
      if (!TARGET_ACCOUNTS.some((a) => a.id === body.account))
        return {
          status: 400,
          body: { errors: { account: [`Account "${body.account}" is not one of your accounts.`] } },
        };
      if (body.target_address !== email)
        return { status: 400, body: { errors: { target_address: ['No account matches.'] } } };
      const id = `f${made.size}`.padEnd(32, '6');
      const transfer = { ...TRANSFER, id, account: body.account };
      made.set(id, transfer);
      return { status: 201, body: { transfer } };
    }
    const got = /^\/v3\/transfers\/(\w+)$/.exec(p)?.[1];
    if (got && made.has(got)) return { status: 200, body: { transfer: made.get(got) } };
    return notFound;
  };
}

describe('replay: money only with the contract suite’s opt-in', () => {
  it('skips an entry that moves money, and the one that reads what it made, saying why', async () => {
    const svc = await fakeService(stagingWithTransfers());
    const { code, out } = await replay(har(MONEY_SESSION), svc.url, {}, ['--json']);
    const { results } = JSON.parse(out) as {
      results: Array<{ key: string; status: string; note?: string }>;
    };
    expect(results.map((r) => r.status)).toEqual(['match', 'skipped', 'skipped']);
    expect(results[1]?.note).toBe(
      'createTransfer moves money: set CONTRACT_ALLOW_MONEY=1 to run it (or --allow-money)',
    );
    expect(results[2]?.note).toMatch(
      new RegExp(
        `^names ${TRANSFER_ID}, made by POST /v3/transfers/, which was skipped: moves money`,
      ),
    );
    expect(svc.seen.filter((r) => path(r).startsWith('/v3/transfers'))).toHaveLength(0);
    expect(code).toBe(0);
  });

  it('sends it with CONTRACT_ALLOW_MONEY=1 (or --allow-money): recorded accounts and e-mails become the target’s', async () => {
    // With the session's recorded accounts list (mapped by currency), and without it (by the field).
    for (const [env, args, session] of [
      [
        { CONTRACT_ALLOW_MONEY: '1', CONTRACT_TRANSFER_TARGET: 'juan@staging.example' },
        [],
        MONEY_SESSION,
      ],
      [
        { CONTRACT_CUSTOMER_EMAIL: 'juan@staging.example' },
        ['--allow-money'],
        MONEY_SESSION.slice(1),
      ],
    ] as Array<[Record<string, string>, string[], RecordedExchange[]]>) {
      const svc = await fakeService(stagingWithTransfers());
      const { code, out } = await replay(har(session), svc.url, env, args);
      expect(out).toMatch(new RegExp(`total\\s+${session.length}/${session.length}`));
      expect(code).toBe(0);
      const sent = svc.seen.find((r) => r.method === 'POST');
      expect(JSON.parse(sent?.body ?? 'null')).toEqual({
        account: 'a1'.repeat(16), // the recorded PHP account, as the target's PHP account
        target_address: 'juan@staging.example',
        amount: '5',
      });
      // The read of what the transfer made names the target's transfer.
      expect(svc.seen.at(-1)?.url).toBe(`/v3/transfers/${'f0'.padEnd(32, '6')}`);
    }
  });
  it('lists the entries it skipped, with the reason, in the text report', async () => {
    const svc = await fakeService(stagingWithTransfers());
    const { out } = await replay(har(MONEY_SESSION), svc.url);
    expect(out).toMatch(
      /#1 {2}POST \S+\/v3\/transfers\/ {2}→ createTransfer {2}\[skipped\] {2}createTransfer moves money: set CONTRACT_ALLOW_MONEY=1/,
    );
  });
});

describe('replay: rate limits, as the contract suite', () => {
  it('waits out a 429 with Retry-After and sends the request again, and paces request starts', async () => {
    let first = true;
    const svc = await fakeService((r) => {
      if (path(r) === '/v3/crypto-accounts/') return accountsAnswer;
      if (path(r) === '/v1/markets' && first) {
        first = false;
        return {
          status: 429,
          body: { detail: 'Request was throttled.' },
          headers: { 'retry-after': '1' },
        };
      }
      return { status: 200, body: MARKETS_READ.response };
    });
    const { code, out } = await replay(har([MARKETS_READ, MARKETS_READ]), svc.url, {
      CONTRACT_MIN_INTERVAL_MS: '',
    });
    expect(out).toMatch(/total\s+2\/2/);
    expect(code).toBe(0);
    const markets = svc.seen.filter((r) => path(r) === '/v1/markets');
    expect(markets).toHaveLength(3);
    expect(gaps(markets)[0]).toBeGreaterThanOrEqual(990);
    // The suite's default spacing of request starts (200 ms; the first request's connection set-up
    // delays its arrival, so the gaps after it are measured).
    for (let i = 2; i < svc.seen.length; i++)
      expect(gaps(svc.seen)[i - 1]).toBeGreaterThanOrEqual(180);
  });
});
