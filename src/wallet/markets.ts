import { ApiError } from '../shared/api-error.js';
import { formatMoney, UNITS_PER_PESO } from '../shared/money.js';
import { pageMeta, pageRequest } from '../shared/pagination.js';
import { PESOS_PER_COIN } from '../shared/rates.js';

/**
 * The quote service's markets (`quote.coins.ph/v1/markets`, `/v1/markets/<symbol>`, `/v2/markets`), which
 * public clients read for prices with the quote host pointed at the sandbox. One market per coin of the
 * sandbox's rate table, quoted in pesos: `bid` 0.5 % under and `ask` 0.5 % over the table's price (the
 * spread is the sandbox's choice), so a conversion at the table rate lies between them. v1 writes them as
 * 8-decimal strings, v2 with the quote currency's 2 decimals and `expires_in_seconds` 30, as recorded.
 */
const SPREAD_PER_MILLE = 5n;
const V2_EXPIRES_IN_SECONDS = 30;

interface Market {
  symbol: string;
  currency: string;
  product: string;
  bid: bigint;
  ask: bigint;
}

function markets(): Market[] {
  return Object.entries(PESOS_PER_COIN).map(([coin, price]) => {
    const units = price * UNITS_PER_PESO;
    return {
      symbol: `${coin}-PHP`,
      currency: 'PHP',
      product: coin,
      bid: (units * (1000n - SPREAD_PER_MILLE)) / 1000n,
      ask: (units * (1000n + SPREAD_PER_MILLE)) / 1000n,
    };
  });
}

/** Units as a 2-decimal string, rounded half up ("621822" → "621822.00"). */
function twoDecimals(units: bigint): string {
  const cents = (units + 500_000n) / 1_000_000n;
  return `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
}

const v1 = (m: Market) => ({
  symbol: m.symbol,
  currency: m.currency,
  product: m.product,
  bid: formatMoney(m.bid),
  ask: formatMoney(m.ask),
});

export const marketsApi = {
  /** `GET /v1/markets`: every market with the page `meta` of the recorded body. */
  listV1() {
    const all = markets();
    return { meta: pageMeta(pageRequest({ per_page: 100 }), all.length), markets: all.map(v1) };
  },
  /** `GET /v1/markets/{symbol}`: one market (symbol case-insensitive); an unknown one is 404 `Not found.`. */
  getV1(symbol: string) {
    const market = markets().find((m) => m.symbol === symbol.toUpperCase());
    if (!market) throw ApiError.notFound();
    return { market: v1(market) };
  },
  /** `GET /v2/markets`: every market, quote-currency decimals, with `expires_in_seconds`. */
  listV2() {
    return {
      markets: markets().map((m) => ({
        symbol: m.symbol,
        currency: m.currency,
        product: m.product,
        bid: twoDecimals(m.bid),
        ask: twoDecimals(m.ask),
        expires_in_seconds: V2_EXPIRES_IN_SECONDS,
      })),
    };
  },
};
