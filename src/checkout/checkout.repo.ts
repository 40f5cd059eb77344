import type { Db } from '../db/open.js';

export interface PayinOutlet {
  id: string;
  name: string;
  /** The payment collector code an outlet pays through (`seven_connect_deposit`, …). */
  collector: string;
  instructions: string;
}

/** The over-the-counter outlets (fixture section `payin_outlets`), in fixture order. SQL only. */
export function createCheckoutRepository(db: Db) {
  const payin = db.prepare(
    "SELECT id, name, collector, instructions FROM outlets WHERE kind = 'payin' AND collector IS NOT NULL ORDER BY position, id",
  );
  return {
    payinOutlets: () => payin.all() as PayinOutlet[],
  };
}

export type CheckoutRepository = ReturnType<typeof createCheckoutRepository>;
