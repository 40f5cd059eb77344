import { sql as initial } from './001-initial.js';
import { sql as referenceCollector } from './002-reference-collector.js';
import { sql as orders } from './004-orders.js';

/**
 * Numbered migrations, applied in order; `PRAGMA user_version` records the last one applied.
 * Sorted by version here so the order of the list below never matters (modules add theirs concurrently).
 */
export const migrations: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'reference-collector', sql: referenceCollector },
  { version: 4, name: 'orders', sql: orders },
].sort((a, b) => a.version - b.version);
