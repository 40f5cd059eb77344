import { randomUUID } from 'node:crypto';

export type IdFactory = () => string;

/**
 * 32 lowercase hex characters: a UUID without dashes (docs/design.md#wire-conventions), of version 7 (RFC 9562): 48 bits
 * of milliseconds, the version, then the random bits and variant of a version 4 UUID. New rows then
 * land at the right edge of every index that holds their ids instead of on a random page each, so a
 * group commit of many creates writes those pages once (docs/benchmarks.md). 74 random bits remain; no
 * secret is made from an id. Built on `randomUUID`, whose entropy is batched: the `uuid` package's v7
 * cost ~19 µs per id here.
 */
export const newId: IdFactory = () => {
  const u = randomUUID(); // xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx
  return (
    Date.now().toString(16).padStart(12, '0') +
    '7' +
    u.slice(15, 18) +
    u.slice(19, 23) +
    u.slice(24)
  );
};

export const ID_PATTERN = /^[0-9a-f]{32}$/;
