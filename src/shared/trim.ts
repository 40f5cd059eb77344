/**
 * Trimming a run of one character at an end of a text, in time linear in the text. The regular
 * expressions these replace (`/0+$/`, `/\/+$/`) are quadratic on a long run that does not reach
 * the end (`5.000…0001`): the engine tries the run from each of its characters in turn
 * (docs/design.md#input-handling).
 */

/** `text` without the `char`s at its end (`trimEnd('1.500', '0')` is `'1.5'`). */
export function trimEnd(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `text` without the `char`s at its start (`trimStart('007', '0')` is `'7'`). */
export function trimStart(text: string, char: string): string {
  let start = 0;
  while (start < text.length && text[start] === char) start++;
  return start === 0 ? text : text.slice(start);
}
