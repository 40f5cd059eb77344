/**
 * How the parity comparison names a value: its JSON type, the format of a string (a decimal's places,
 * a time, plain text), and whether a key holds an enumeration.
 */

/** Keys whose values are an enumeration: the recorded value must be ours too. */
const ENUM_KEYS = new Set([
  'status',
  'delivery_status',
  'entry_type',
  'payer_contact_info_type',
  'outlet_category',
  'note_scope',
  'category',
]);
/** A currency code (`PHP`, `PBTC`) is an enumeration too, wherever it is named. */
export const isEnumKey = (key: string) => ENUM_KEYS.has(key) || /(^|_)currency$/.test(key);
/** An enum value as the service writes it: `payment_received`, `PHP`, `PBTC` (not free text, ids or numbers). */
export const ENUM_VALUE = /^[A-Za-z_]+$/;
const ID_LIKE =
  /(^id$|_id$|^id_|code$|number|address|^tx|nonce|phone|^invoice$|^account$|_account$|^receiver$|^owner|^payment$)/;
const TIME_KEY = /(time|_at|epoch|date|expires)/;

/** `string`, `number`, `boolean`, `null`, `object`, `array`. */
export function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/**
 * How a string value is written: `decimal(8 places)` (padded), `decimal(as entered)` (no trailing zero,
 * "5", "0.025"), `epoch seconds`, `ISO 8601`, or plain `string`.
 *
 * @example
 * formatOf('amount', '5')           // 'decimal(as entered)'
 * formatOf('amount', '5.00000000')  // 'decimal(8 places)'
 * formatOf('created_time', '1594617992') // 'epoch seconds'
 */
export function formatOf(key: string, v: string): string {
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(v)) return 'ISO 8601';
  if (/^1\d{9}$/.test(v) && TIME_KEY.test(key)) return 'epoch seconds';
  if (ID_LIKE.test(key)) return 'string';
  // A number written with a leading zero or a plus (a phone number: "09171234567") is no decimal.
  if (/^(?:0\d+|\+\d+)$/.test(v)) return 'string';
  const m = /^-?\d+(?:\.(\d+))?$/.exec(v);
  if (!m) return 'string';
  const decimals = m[1] ?? '';
  return decimals.endsWith('0') ? `decimal(${decimals.length} places)` : 'decimal(as entered)';
}

/**
 * A recorded decimal whose last place happens not to be zero ("9911.31691110" is padded, "10008.48668473"
 * reads as entered) is written with as many places as ours when ours is padded to that many: the recorded
 * value is no evidence against the padding.
 */
export function paddedAlike(recorded: string, ours: string): boolean {
  const places = /^-?\d+\.(\d+)$/.exec(recorded)?.[1]?.length;
  return places !== undefined && ours === `decimal(${places} places)`;
}

export function describe(key: string, v: unknown): string {
  return typeof v === 'string'
    ? `${formatOf(key, v)} ${JSON.stringify(v.length > 40 ? `${v.slice(0, 37)}...` : v)}`
    : typeOf(v);
}
