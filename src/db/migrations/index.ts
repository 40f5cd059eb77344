import { sql as initial } from './001-initial.js';

/** Numbered migrations, applied in order; `PRAGMA user_version` records the last one applied. */
export const migrations: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  { version: 1, name: 'initial', sql: initial },
];
