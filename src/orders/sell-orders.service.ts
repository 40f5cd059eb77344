import type { DueJob } from '../clock/due-work.js';
import { ApiError } from '../shared/api-error.js';
import {
  requireLiveWorkspace,
  type App,
  type IdentitiesApi,
} from '../identities/identities.api.js';
import type { Account } from '../ledger/ledger.api.js';
import { FIELD_RULES } from '../outlets/outlets.catalog.js';
import type { OutletService } from '../outlets/outlets.service.js';
import type { IdFactory } from '../shared/ids.js';
import type { TransferService } from '../transfers/transfers.service.js';
import { parseAmount } from '../shared/money.js';
import { offsetMeta, offsetRequest } from '../shared/pagination.js';
import { ownerWallet, stepStatus, type OrderServiceDeps } from './orders.common.js';
import type { SellOrderRow, SellOrderStatus } from './orders.repo.js';
import { sellOrderHistoryItem, sellOrderResource } from './orders.view.js';
import { requireOtp } from '../auth/otp.guard.js';

/** Where each delivery status may go (docs/design.md#public-api); terminal statuses go nowhere. */
export const SELL_ORDER_TRANSITIONS: Record<SellOrderStatus, SellOrderStatus[]> = {
  pending_payment: ['processing', 'completed', 'failed', 'canceled'],
  processing: ['completed', 'failed'],
  completed: [],
  failed: [],
  canceled: [],
};

/** The step the sandbox clock takes on its own. */
const AUTO_NEXT: Partial<Record<SellOrderStatus, SellOrderStatus>> = {
  pending_payment: 'processing',
  processing: 'completed',
};

/** `pay_with_wallet` values that mean the peso wallet (`PBTC` is the real service's name for it). */
const PESO_WALLET_NAMES = ['PBTC', 'PHP'];

export interface SellOrderCreateBody {
  outlet_id?: string;
  payment_outlet?: string;
  amount: number | string;
  currency?: string;
  pay_with_wallet?: string;
  target_address?: string;
  external_transaction_id?: string;
  fields?: Record<string, unknown>;
  otp?: string;
  /** The legacy name of `otp`. */
  code?: string;
}

export interface SellOrderDeps extends OrderServiceDeps {
  outlets: OutletService;
  /** Finds the wallet a `coins_transfer` order sends to, exactly as a transfer finds its target. */
  sendTargets: Pick<TransferService, 'resolveTarget'>;
  ids: IdFactory;
  /** Seconds on the owner's clock per automatic step (0 = only the control API moves orders). */
  autoAdvanceSeconds: () => number;
  /** A control call on an order is on its owner's clock (docs/design.md#the-clock). */
  enterOwner: (ownerId: string) => void;
  /** A deleted workspace's orders no longer move through the control API (requireLiveWorkspace). */
  identities: Pick<IdentitiesApi, 'ownerWorkspaceEnded'>;
}

/** The payout category of prepaid mobile load (`load-globe` …). */
const MOBILE_LOAD = 'mobile-load';

/** The payout category that sends to a wallet in the sandbox instead of out of it. */
const WALLET_PAYOUT = 'coins_transfer';

type PayoutOutlet = ReturnType<OutletService['requirePayoutOutlet']>;

/**
 * Sell orders (cash-out through a payout outlet). Creating one debits the owner's peso wallet by
 * amount + fee in one ledger transaction (fee to the fee account, amount to payout clearing); `failed`
 * and `canceled` post the same amounts back; `completed` pays the clearing amount out to the world, or,
 * through `coins_transfer`, into the wallet its `target_address` named.
 */
export function createSellOrderService(d: SellOrderDeps) {
  function outletOf(body: SellOrderCreateBody) {
    if (
      body.outlet_id !== undefined &&
      body.payment_outlet !== undefined &&
      body.outlet_id !== body.payment_outlet
    ) {
      throw ApiError.field(
        'payment_outlet',
        'Must be the same outlet as outlet_id when both are given.',
      );
    }
    const field =
      body.outlet_id === undefined && body.payment_outlet !== undefined
        ? 'payment_outlet'
        : 'outlet_id';
    return d.outlets.requirePayoutOutlet(body.outlet_id ?? body.payment_outlet, field);
  }

  const delayMicros = () => Math.round(d.autoAdvanceSeconds() * 1_000_000);
  /** An order of the clock entered a step at `at`: its next one falls due a delay later. */
  function expectStep(to: SellOrderStatus, at: number): void {
    if ((to === 'pending_payment' || to === 'processing') && delayMicros() > 0)
      d.dueWork.expect(at + delayMicros());
  }

  function move(row: SellOrderRow, to: SellOrderStatus, at: number): SellOrderRow {
    stepStatus('Sell order', SELL_ORDER_TRANSITIONS, row.delivery_status, to, () =>
      d.orders.setSellStatus(row.id, row.delivery_status, to, at),
    );
    if (row.auto_advance) expectStep(to, at);
    // Pre-settled fixture history has no debit, so there is nothing to give back or pay out.
    if (row.debit_transaction_id) {
      if (to === 'failed' || to === 'canceled') {
        d.ledger.post('sell_order_refund', row.id, [
          {
            accountId: d.ledger.systemAccount('payoutClearing', row.currency),
            amount: -row.amount,
          },
          { accountId: d.ledger.systemAccount('payoutFees', row.currency), amount: -row.fee },
          { accountId: row.account_id, amount: row.amount + row.fee },
        ]);
      } else if (to === 'completed') {
        d.ledger.post('sell_order_payout', row.id, [
          {
            accountId: d.ledger.systemAccount('payoutClearing', row.currency),
            amount: -row.amount,
          },
          {
            accountId: row.target_account_id ?? d.ledger.systemAccount('funding', row.currency),
            amount: row.amount,
          },
        ]);
      }
    }
    return d.orders.sellById(row.id)!;
  }

  /** A prepaid-load order names the phone to load (`phone_number_load`, a Philippine mobile number). */
  function requireLoadPhone(outlet: PayoutOutlet, body: SellOrderCreateBody): void {
    if (outlet.category !== MOBILE_LOAD) return;
    const phone = body.fields?.phone_number_load;
    if (phone === undefined) throw ApiError.field('phone_number_load', 'This field is required.');
    const rule = FIELD_RULES.phone_number_load!;
    if (typeof phone !== 'string' || rule.check(phone) === null)
      throw ApiError.field('phone_number_load', rule.message);
  }

  /** The wallet a `coins_transfer` order pays into (same tenant, same 400s as transfers); none for other outlets. */
  function payoutWallet(
    app: App,
    outlet: PayoutOutlet,
    body: SellOrderCreateBody,
  ): Account | undefined {
    if (outlet.category !== WALLET_PAYOUT) return undefined;
    if (body.target_address === undefined)
      throw ApiError.field('target_address', 'This field is required.');
    return d.sendTargets.resolveTarget(app, body.target_address, outlet.currency);
  }

  const api = {
    create(app: App, body: SellOrderCreateBody, headerOtp: string | undefined): SellOrderRow {
      requireOtp(app, [body.otp, body.code, headerOtp], d.clock.now());
      const outlet = outletOf(body);
      const currency = body.currency ?? outlet.currency;
      if (currency !== outlet.currency)
        throw ApiError.field('currency', `"${currency}" is not a valid choice.`);
      if (
        body.pay_with_wallet !== undefined &&
        !PESO_WALLET_NAMES.includes(body.pay_with_wallet.toUpperCase())
      ) {
        throw ApiError.field('pay_with_wallet', `"${body.pay_with_wallet}" is not a valid choice.`);
      }
      requireLoadPhone(outlet, body);
      const target = payoutWallet(app, outlet, body);
      const quote = d.outlets.quote(outlet, parseAmount(body.amount));
      return d.unitOfWork(() => {
        const wallet = ownerWallet(d.ledger, app.owner_id, currency);
        if (target && target.id === wallet?.id)
          throw ApiError.field('target_address', 'Cannot send to the same account.');
        if (!wallet || wallet.balance < quote.total)
          throw ApiError.general('insufficient_balance', 'Insufficient balance.');
        if (target) d.ledger.requireRoom(target.id, quote.amount);
        const id = d.ids();
        const debit = d.ledger.post('sell_order', id, [
          { accountId: wallet.id, amount: -quote.total },
          {
            accountId: d.ledger.systemAccount('payoutClearing', wallet.currency),
            amount: quote.amount,
          },
          { accountId: d.ledger.systemAccount('payoutFees', wallet.currency), amount: quote.fee },
        ]);
        const now = d.clock.now();
        d.orders.insertSell({
          id,
          owner_id: app.owner_id,
          account_id: wallet.id,
          outlet_id: outlet.id,
          amount: quote.amount,
          fee: quote.fee,
          currency,
          delivery_status: 'pending_payment',
          external_transaction_id: body.external_transaction_id ?? null,
          target_address: body.target_address ?? null,
          target_account_id: target?.id ?? null,
          fields: JSON.stringify(body.fields ?? {}),
          debit_transaction_id: debit,
          auto_advance: 1,
          created_at: now,
          status_changed_at: now,
        });
        expectStep('pending_payment', now);
        return d.orders.sellById(id)!;
      });
    },

    /** The caller's own order (the stored row: the routes write its body and the sandbox's fee headers). */
    get(ownerId: string, id: string): SellOrderRow {
      const row = d.orders.sellForOwner(id, ownerId);
      if (!row) throw ApiError.notFound();
      return row;
    },

    list(ownerId: string, query: { limit?: number; offset?: number }) {
      const req = offsetRequest(query);
      return {
        orders: d.orders.sellPage(ownerId, req.limit, req.offset).map(sellOrderHistoryItem),
        meta: offsetMeta(req, d.orders.sellCount(ownerId)),
      };
    },

    /**
     * `POST /_sandbox/sellorders/{id}/status`: any owner's order; refused (409) unless the move is allowed
     * and the order's workspace is live.
     */
    setStatus(id: string, to: SellOrderStatus) {
      return d.unitOfWork(() => {
        const row = d.orders.sellById(id);
        if (!row) throw ApiError.notFound();
        requireLiveWorkspace(
          d.identities,
          { type: 'user', id: row.owner_id },
          'sell order',
          `it cannot become ${to}.`,
        );
        d.enterOwner(row.owner_id);
        return sellOrderResource(move(row, to, d.clock.now()));
      });
    },

    /**
     * The clock's own progress: each in-flight order takes one step per delay, dated when it fell due,
     * so a clock moved by two delays at once completes an order just as waiting would have.
     */
    advanceDue(): number {
      const delay = delayMicros();
      if (delay <= 0) return 0;
      let moved = 0;
      for (;;) {
        const due = d.orders.dueSell(d.clock.now() - delay);
        if (!due.length) return moved;
        d.unitOfWork(() => {
          for (const row of due)
            move(row, AUTO_NEXT[row.delivery_status]!, Number(row.status_changed_at) + delay);
        });
        moved += due.length;
      }
    },
  };
  return {
    ...api,
    /** The clock's progress as due work (src/clock/due-work.ts), registered by the module. */
    dueJob: {
      name: 'sell-orders.progress',
      run: () => void api.advanceDue(),
      earliest(ws) {
        const t = delayMicros() > 0 ? d.orders.earliestSell(ws) : null;
        return t === null ? null : t + delayMicros();
      },
    } satisfies DueJob,
  };
}

export type SellOrderService = ReturnType<typeof createSellOrderService>;
