/**
 * Reads the type system cannot prove: an index inside an array's bounds, a value a previous step
 * set. Each says what was expected, so a broken assumption fails at once with a clear message
 * instead of flowing on as `undefined`. Not for input from outside (that gets a 4xx).
 */

/** `array[index]`, which the caller knows is inside the array. */
export function itemAt<T>(array: ArrayLike<T>, index: number): T {
  const value = array[index];
  if (value === undefined)
    throw new RangeError(`no item at index ${index} (length ${array.length})`);
  return value;
}

/** `value`, which the caller knows is set; `what` names it in the error when it is not. */
export function required<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`expected ${what}, found ${value}`);
  return value;
}
