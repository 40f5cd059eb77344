/**
 * The sandbox's fixed rate table: pesos per coin. The BTC price is the rate of a real conversion an
 * integrator recorded (200 PBTC → 0.00032164 BTC at "621822"); the ETH price is the sandbox's choice.
 * Fixed so that tests and examples can compute every amount in advance; conversions, crypto routes and
 * the invoices' `locked_rate` / `btc_amount_due` all read it.
 */
export const PESOS_PER_COIN: Readonly<Record<string, bigint>> = { BTC: 621_822n, ETH: 95_000n };

/** Units (1e-8) of a coin worth `pesoUnits` units of pesos at `pesosPerCoin`, rounded half up. */
export function coinUnitsFor(pesoUnits: bigint, pesosPerCoin: bigint): bigint {
  return (2n * pesoUnits + pesosPerCoin) / (2n * pesosPerCoin);
}

/**
 * Units (1e-8) of a coin that `pesoUnits` units of pesos buy at `pesosPerCoin`, rounded down: a
 * conversion never credits more than it debits at the rate, so no sequence of conversions creates money
 * (src/wallet/conversion-value.property.test.ts).
 */
export function coinUnitsBought(pesoUnits: bigint, pesosPerCoin: bigint): bigint {
  return pesoUnits / pesosPerCoin;
}
