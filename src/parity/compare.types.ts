/** What a structural comparison of two answers reports (compare.ts). */

/** What differs: the status, a key, a value's JSON type, its format, or an enum value. */
export type DiffKind = 'status' | 'missing' | 'extra' | 'type' | 'format' | 'enum';

export interface Difference {
  /** `order.fee`, `orders[].amount`; `""` is the body itself, `status` the HTTP status. */
  path: string;
  kind: DiffKind;
  recorded: string;
  ours: string;
}

export interface Answer {
  status: number;
  /** The parsed JSON body, or the text when it is not JSON. */
  body: unknown;
}
