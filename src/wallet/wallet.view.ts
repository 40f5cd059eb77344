/** The wire shapes of the wallet module's resources (conversions, crypto payments, payment requests). */
import { developerCurrency } from '../ledger/accounts.view.js';
import { formatTimestamp } from '../shared/clock.js';
import { formatDecimal, formatMoney } from '../shared/money.js';
import { PESOS_PER_COIN } from '../shared/rates.js';
import type {
  CryptoExchangeRecord,
  CryptoPaymentRecord,
  CryptoRouteRecord,
  PaymentRequestRecord,
  Row,
} from './wallet.repo.js';

/** Every route of the table, both ways between the peso wallet and each coin (developer currency codes). */
export function cryptoRoutes() {
  return Object.entries(PESOS_PER_COIN).flatMap(([coin, price]) =>
    (
      [
        ['PBTC', coin],
        [coin, 'PBTC'],
      ] as const
    ).map(([source, target]) => ({
      id: `${source}-${target}`,
      source_currency: source,
      target_currency: target,
      rate: price.toString(),
    })),
  );
}

/** A developer's crypto route, bare as the 2015 docs show it (parity/recorded crypto-routes.har#0). */
export function cryptoRouteResource(r: CryptoRouteRecord) {
  return {
    id: r.id,
    monitored_address: r.monitored_address,
    stock_address: r.stock_address,
    created_at: formatTimestamp(Number(r.created_at)),
  };
}

/** The `crypto-exchange` resource, field for field as the real service answers a conversion. */
export function cryptoExchangeResource(r: Row<CryptoExchangeRecord>) {
  return {
    id: r.id,
    source_account: r.source_account_id,
    target_account: r.target_account_id,
    rate: r.rate,
    // Unpadded, as the recorded conversion writes them ("200", "0.00032164"; crypto-exchanges.har#1).
    source_amount: formatDecimal(r.source_amount),
    target_amount: formatDecimal(r.target_amount),
    source_currency: developerCurrency(r.source_currency),
    target_currency: developerCurrency(r.target_currency),
    owner_payment: r.owner_payment,
    trader_payment: r.trader_payment,
    reference: {},
    status: r.status,
    created_at: formatTimestamp(Number(r.created_at)),
  };
}

/**
 * The `crypto-payment` resource: the recorded body's keys (`tx_id` "" as there is no chain in the sandbox,
 * `entry_type` `outgoing` for the sender, `fee_amount` "0.00000000": a wallet-to-wallet send is free); nothing
 * more, as recorded: the currency is the paying account's, and the sender's message is kept but not echoed.
 */
export function cryptoPaymentResource(r: Row<CryptoPaymentRecord>) {
  return {
    id: r.id,
    account: r.account_id,
    tx_id: '',
    target_address: r.target_address,
    entry_type: 'outgoing' as const,
    amount: formatMoney(r.amount),
    fee_amount: formatMoney(0n),
    status: r.status,
    created_at: formatTimestamp(Number(r.created_at)),
  };
}

/**
 * The `payment-request` resource with the recorded body's keys: the payer as sent and its kind
 * (`payer_contact_info_type`), the payer's email, `message_scope` `private`, and `payment_url`, the
 * payer's page (`/payment/request/<id>`, as on the real service, here under the sandbox's public URL).
 * The recorded body's `invoice` (the invoice behind the request) has no counterpart in the sandbox.
 * `currency` is the invoice currency as recorded (`"PHP"` for the peso wallet), not the wallet's
 * developer-API code (`PBTC`) that crypto accounts carry.
 */
export function paymentRequestResource(
  r: Row<PaymentRequestRecord>,
  more: { paymentUrl: string; payerEmail: string | null },
) {
  return {
    id: r.id,
    payer_contact_info: r.payer_contact_info,
    payer_contact_info_type: r.payer_contact_info.includes('@')
      ? ('email' as const)
      : ('mobile' as const),
    payer_email: more.payerEmail,
    amount: formatMoney(r.amount),
    currency: r.currency,
    message: r.message,
    message_scope: 'private' as const,
    status: r.status,
    receiving_account: r.receiving_account_id,
    payment_url: more.paymentUrl,
    created_at: formatTimestamp(Number(r.created_at)),
    updated_at: formatTimestamp(Number(r.updated_at)),
    expires_at: formatTimestamp(Number(r.expires_at)),
  };
}
