/**
 * `fee_percent` of payout fee brackets becomes a fraction, as the real service writes it ("0.01" = 1 %;
 * it was stored as a percentage, "1"). The stored decimals have at most 4 fractional digits, so dividing
 * through a double and printing 12 digits is exact; trailing zeros and a bare point are trimmed
 * ("0.5" → "0.005", "0" → "0").
 */
export const sql = /* sql */ `
UPDATE payout_outlet_fees
   SET fee_percent = rtrim(rtrim(printf('%.12f', CAST(fee_percent AS REAL) / 100), '0'), '.');
`;
