/**
 * The floor rows of a run (bench/floor-server.mjs): the invoice create's request against a bare Hono app
 * that only reads and answers it, and against one that also runs the sandbox's own storage of a create
 * on a copy of the seeded database; the wallet payment against one that runs the sandbox's own storage of a
 * payment (ledger, payment, invoice, event, delivery) on the same copy; the signed GET against one that does only what any signed read
 * must (signature, durable nonce, accounts). They say how much of the sandbox's cost is HTTP and SQLite,
 * which no API around them can save, and how much is the API.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ScenarioResult, Target } from './report.js';
import { signingKey } from './hmac.js';
import { startScript, type Server } from './servers.js';
import { floorScenarios, type LoadScenario } from '../scenarios/api.js';

export const FLOOR_IDS = [
  'floor-post',
  'floor-create',
  'floor-payment',
  'floor-signed-get',
] as const;

/** A copy of the seeded database for the floor, taken before the sandbox opens (and locks) the file. */
export function floorDatabase(work: string, seededDb: string): string {
  const db = join(work, 'floor.db');
  copyFileSync(seededDb, db);
  if (existsSync(`${seededDb}-wal`)) copyFileSync(`${seededDb}-wal`, `${db}-wal`);
  return db;
}

export async function floorPhase(o: {
  root: string;
  /** From `floorDatabase`. */
  db: string;
  merchantToken: string;
  /** The quiet merchant's seeded invoices, which the payment floor pays in its own copy. */
  quietInvoiceIds: string[];
  nodeFlags: string[];
  connections: number;
  runId: string;
  wanted: (id: string) => boolean;
  measure: (
    target: Target,
    baseUrl: string,
    s: LoadScenario,
    pid?: number,
  ) => Promise<ScenarioResult>;
  print: (r: ScenarioResult) => void;
}): Promise<ScenarioResult[]> {
  if (!FLOOR_IDS.some((id) => o.wanted(id))) return [];
  let floor: Server | undefined;
  const results: ScenarioResult[] = [];
  // Its own apps (the sandbox's are made through its control API, after this copy was taken).
  const keys = Array.from({ length: o.connections }, () =>
    signingKey(randomBytes(16).toString('hex'), randomBytes(24).toString('hex')),
  );
  try {
    floor = await startScript({
      root: o.root,
      script: 'floor-server.mjs',
      nodeFlags: o.nodeFlags,
      readyPath: '/healthz',
      args: [
        o.db,
        o.merchantToken,
        JSON.stringify(keys.map((k) => ({ apiKey: k.apiKey, apiSecret: k.apiSecret }))),
      ],
    });
    const c = { ...o, baseUrl: floor.url, keys };
    for (const s of floorScenarios(c)) {
      if (!o.wanted(s.id)) continue;
      const r = await o.measure('floor', floor.url, s, floor.child.pid);
      o.print(r);
      results.push(r);
    }
  } finally {
    await floor?.stop();
  }
  return results;
}
