/** Test support (imported by *.test.ts only): what the control API says of a merchant's URLs. */

/** A callback_url on the sandbox itself that is not its example receiver. */
export const NOT_THE_RECEIVER =
  'On the sandbox itself a callback_url can only be its example receiver, /_sandbox/inbox/<merchant id>, written plainly (no empty segment, escaped slash, dot segment, query or fragment: a callback there would not reach it).';
