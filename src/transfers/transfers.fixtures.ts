import type { Faker } from '@faker-js/faker';
import type { Fixtures } from '../fixtures/fixture-types.js';
import { formatMoney, parseAmount } from '../shared/money.js';
import type { TransferRepository, TransferStatus } from './transfers.repo.js';

/** Enough history per application that paging matters (issue 5: at least 250). */
export const TRANSFERS_PER_APP = 251;
const HISTORY_SECONDS = 180 * 86400;

export interface FixtureTransfer {
  id: string;
  owner_id: string;
  account_id: string;
  target_account_id: string;
  /** As the sender typed it: an account id, a customer email or a mobile number. */
  target_address: string;
  amount: string;
  currency: string;
  status: TransferStatus;
  /** Seconds before the moment the fixtures are loaded. */
  age_seconds: number;
}

/** Fixture generator (registered in src/fixtures/extensions.ts): transfer history per developer. */
export function generateTransferFixtures(f: Faker, fx: Fixtures): void {
  const hex = () => f.string.hexadecimal({ length: 32, casing: 'lower', prefix: '' });
  const out: FixtureTransfer[] = [];
  for (const dev of fx.developers) {
    const others = fx.developers.filter((o) => o.id !== dev.id);
    let lastAge = 0;
    for (let i = 0; i < TRANSFERS_PER_APP; i++) {
      const crypto = others.length > 0 && f.datatype.boolean(0.1);
      const currency = crypto ? 'BTC' : 'PHP';
      const source = dev.accounts.find((a) => a.currency === currency)!;
      let target: { account: string; address: string };
      const kind = f.helpers.weightedArrayElement([
        { weight: 4, value: 'email' },
        { weight: 3, value: 'mobile' },
        { weight: others.length ? 3 : 0, value: 'account' },
      ]);
      if (crypto || kind === 'account') {
        const acc = f.helpers.arrayElement(others).accounts.find((a) => a.currency === currency)!;
        target = { account: acc.id, address: acc.id };
      } else {
        const c = f.helpers.arrayElement(fx.customers);
        target = {
          account: c.accounts.find((a) => a.currency === 'PHP')!.id,
          address: kind === 'email' ? c.email : c.mobile_number,
        };
      }
      // BTC: 0.00001 to 0.01 in units of 1e-8; PHP: 10 to 8000 pesos with centavos.
      const units = crypto
        ? BigInt(f.number.int({ min: 1000, max: 1_000_000 }))
        : parseAmount(`${f.number.int({ min: 10, max: 8000 })}.${f.string.numeric(2)}`);
      // Every 40th shares its time with the one before, so the id tie-break of the list order is exercised.
      const age = i % 40 === 39 ? lastAge : f.number.int({ min: 30, max: HISTORY_SECONDS });
      lastAge = age;
      out.push({
        id: hex(),
        owner_id: dev.id,
        account_id: source.id,
        target_account_id: target.account,
        target_address: target.address,
        amount: formatMoney(units),
        currency,
        status: f.helpers.weightedArrayElement<TransferStatus>([
          { weight: 88, value: 'success' },
          { weight: 12, value: 'failed' },
        ]),
        age_seconds: age,
      });
    }
  }
  fx.transfers = out;
}

/**
 * Fixture section loader (inside the fixture transaction). Transfer history is pre-settled: the
 * fixture balances are the balances after it, so its records carry no ledger postings (a transfer is
 * instant and final; nothing can move it later).
 */
export function loadTransferFixtures(
  now: number,
  transfers: TransferRepository,
  fx: Fixtures,
): void {
  for (const t of (fx.transfers ?? []) as FixtureTransfer[]) {
    transfers.insert({
      id: t.id,
      owner_id: t.owner_id,
      account_id: t.account_id,
      target_account_id: t.target_account_id,
      target_address: t.target_address,
      amount: parseAmount(t.amount),
      currency: t.currency,
      status: t.status,
      ledger_transaction_id: null,
      created_at: now - t.age_seconds * 1_000_000,
    });
  }
}
