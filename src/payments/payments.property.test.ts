import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlReads } from '../control/control.reads.js';
import { createProvisioningService } from '../control/provisioning.service.js';
import { ApiError } from '../shared/api-error.js';
import type { InvoiceStatus } from '../invoices/invoices.api.js';
import { assertLedgerInvariants } from '../ledger/invariants.js';
import { formatMoney } from '../shared/money.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

/**
 * Random sequences of lifecycle operations against a model (docs/design.md#invoice-lifecycle-and-events). Real time is all but
 * frozen, so only clock advances move time and the model knows exactly when an invoice expires. One sandbox
 * serves every run; each run takes its own merchant and customer, so runs stay independent.
 */

const LIFETIME_SECONDS = 900;
type Kind = 'partial' | 'full' | 'over';
type Step =
  | { op: 'create'; amount: bigint }
  | { op: 'wallet' | 'counter'; at: number; kind: Kind; percent: number }
  | { op: 'expire' | 'cancel'; at: number }
  | { op: 'advance'; seconds: number }
  | { op: 'concurrent'; at: number; n: number; collector: 'coins_peso_wallet' | 'cash_payment' };

const kind = fc.constantFrom<Kind>('partial', 'full', 'over');
const at = fc.nat(20);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('create' as const),
      amount: fc.oneof(fc.bigInt(1n, 3n), fc.bigInt(1n, 100_000_000_000n)),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('wallet' as const),
      at,
      kind,
      percent: fc.integer({ min: 1, max: 99 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('counter' as const),
      at,
      kind,
      percent: fc.integer({ min: 1, max: 99 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constantFrom('expire' as const, 'cancel' as const), at }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('advance' as const),
      seconds: fc.oneof(fc.integer({ min: 1, max: 120 }), fc.constantFrom(899, 900, 901)),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('concurrent' as const),
      at,
      n: fc.integer({ min: 2, max: 3 }),
      collector: fc.constantFrom('coins_peso_wallet' as const, 'cash_payment' as const),
    }),
  },
);

interface ModelInvoice {
  id: string;
  amount: bigint;
  received: bigint;
  walletPaid: bigint;
  status: InvoiceStatus;
  bornAtSeconds: number;
}

/** Runs share a sandbox for speed; a fresh one every few runs keeps the ledger scans short. */
const RUNS_PER_SANDBOX = 20;
let t: TestApp;
let runsOnSandbox = 0;

function freshSandbox(): TestApp {
  // Real time creeps 1 µs per reading, so the clock's strictly increasing readings never run ahead of
  // real time + offset, and an invoice expires exactly when its lifetime of advances has passed.
  const start = Date.now();
  let readings = 0;
  return createTestApp({ realNowMs: () => start + readings++ / 1000 });
}

beforeAll(() => {
  t = freshSandbox();
});
afterAll(() => t.close());

function sumPayments(invoiceId: string): bigint {
  const r = t.db
    .prepare('SELECT COALESCE(SUM(amount), 0) AS s FROM payments WHERE invoice_id = ?')
    .safeIntegers(true)
    .get(invoiceId) as { s: bigint };
  return r.s;
}

/** Run `work`; a refusal must be exactly `code`. Returns whether it succeeded. */
function attempt(work: () => unknown, refusedWith: string | null): boolean {
  try {
    work();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    expect(err.code, err.message).toBe(refusedWith);
    return false;
  }
  expect(refusedWith, 'the call should have been refused').toBeNull();
  return true;
}

async function runSteps(steps: Step[]): Promise<void> {
  if (++runsOnSandbox > RUNS_PER_SANDBOX) {
    await t.close();
    t = freshSandbox();
    runsOnSandbox = 1;
  }
  const s = t.services;
  const provisioning = createProvisioningService(
    s,
    createControlReads(s.db, s.identities, s.invoices),
  );
  const merchant = provisioning.createMerchant({});
  const customer = provisioning.createCustomer({ balance: '1000000' });
  const customerWallet = s.ledger.byOwner('user', customer.id)[0]!.id;
  const startBalance = s.ledger.get(customerWallet)!.balance;
  const invoices: ModelInvoice[] = [];
  const lastSeen = new Map<string, InvoiceStatus>();
  const elapsed = () => s.clock.offsetMicros() / 1_000_000;

  const settle = (inv: ModelInvoice, amount: bigint, wallet: boolean) => {
    inv.received += amount;
    if (wallet) inv.walletPaid += amount;
    if (inv.received >= inv.amount) inv.status = 'fully_paid';
  };
  const amountFor = (inv: ModelInvoice, k: Kind, percent: number) => {
    const due = inv.amount > inv.received ? inv.amount - inv.received : 1n;
    if (k === 'full') return due;
    if (k === 'over') return due + (due * BigInt(percent)) / 100n + 1n;
    const part = (due * BigInt(percent)) / 100n;
    return part > 0n ? part : 1n;
  };

  for (const st of steps) {
    const inv = invoices.length ? invoices[('at' in st ? st.at : 0) % invoices.length]! : undefined;
    switch (st.op) {
      case 'create': {
        const view = s.invoices.create(merchant, {
          amount: formatMoney(st.amount),
          currency: 'PHP',
          external_transaction_id: s.ids(),
        });
        invoices.push({
          id: view.id,
          amount: st.amount,
          received: 0n,
          walletPaid: 0n,
          status: 'pending',
          bornAtSeconds: elapsed(),
        });
        break;
      }
      case 'wallet':
      case 'counter': {
        if (!inv) break;
        const amount = amountFor(inv, st.kind, st.percent);
        const pay = () =>
          st.op === 'wallet'
            ? s.payments.payFromWallet(inv.id, customer, amount)
            : s.payments.payOverCounter(inv.id, 'cash_payment', amount);
        if (attempt(pay, inv.status === 'pending' ? null : 'invoice_not_payable'))
          settle(inv, amount, st.op === 'wallet');
        break;
      }
      case 'expire':
      case 'cancel': {
        if (!inv) break;
        const close = () =>
          st.op === 'expire' ? s.payments.expire(inv.id) : s.payments.cancel(inv.id);
        if (attempt(close, inv.status === 'pending' ? null : 'invalid_state_transition'))
          inv.status = st.op === 'expire' ? 'expired' : 'canceled';
        break;
      }
      case 'advance': {
        const res = await t.request('POST', '/_sandbox/clock/advance', {
          body: { seconds: st.seconds },
        });
        expect(res.status).toBe(200);
        for (const i of invoices)
          if (i.status === 'pending' && elapsed() - i.bornAtSeconds >= LIFETIME_SECONDS)
            i.status = 'expired';
        break;
      }
      case 'concurrent': {
        if (!inv) break;
        const amount = amountFor(inv, 'full', 0);
        const results = await Promise.all(
          Array.from({ length: st.n }, () =>
            t.request('POST', `/_sandbox/invoices/${inv.id}/payments`, {
              body: { collector: st.collector, amount: formatMoney(amount), customer: customer.id },
            }),
          ),
        );
        const statuses = results.map((r) => r.status).sort();
        if (inv.status === 'pending') {
          expect(statuses).toEqual([201, ...Array(st.n - 1).fill(409)]);
          settle(inv, amount, st.collector === 'coins_peso_wallet');
        } else {
          expect(statuses).toEqual(Array(st.n).fill(409));
        }
        break;
      }
    }

    // After every step: the database agrees with the model (statuses, amounts, both wallets' balances).
    for (const m of invoices) {
      const row = s.invoiceRepo.byId(m.id)!;
      const before = lastSeen.get(m.id) ?? 'pending';
      expect(
        before === row.status || before === 'pending',
        `${m.id} moved ${before} → ${row.status}`,
      ).toBe(true);
      lastSeen.set(m.id, row.status);
      expect(row.status, `status of ${m.id}`).toBe(m.status);
      expect(row.amount_received).toBe(m.received);
      expect(sumPayments(m.id)).toBe(row.amount_received);
    }
    const totalPaid = invoices.reduce((sum, m) => sum + m.received, 0n);
    expect(s.ledger.get(merchant.wallet_account_id)!.balance).toBe(totalPaid);
    expect(s.ledger.get(customerWallet)!.balance).toBe(
      startBalance - invoices.reduce((sum, m) => sum + m.walletPaid, 0n),
    );
  }
  // After the run: every rule of the whole ledger (a full scan of the sandbox's books, which grow over the
  // runs a sandbox serves; a broken rule stays broken, since no step rewrites a posted entry).
  assertLedgerInvariants(s.db);
}

describe('invoice lifecycle properties', () => {
  it('keeps the ledger balanced and the lifecycle rules under random operation sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 20 }), (steps) => runSteps(steps)),
      { numRuns: 200 },
    );
    // CPU-bound (200 runs, each ending with a full ledger check): a busy machine stretches it, so the bound is generous.
  }, 180_000);
});
