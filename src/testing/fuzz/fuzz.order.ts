import fc from 'fast-check';
import type { Operation } from '../../spec/load.js';
import { itemAt } from '../../shared/defined.js';

/**
 * The order of one round of the round-robin: the operations shuffled by `seed`, then sorted (stably) so
 * that each round first makes things, then uses them, and resets last.
 */
export function roundOrder(operations: Operation[], seed: number): Operation[] {
  const shuffled = itemAt(
    fc.sample(fc.shuffledSubarray(operations, { minLength: operations.length }), {
      seed,
      numRuns: 1,
    }),
    0,
  );
  // The reset wipes every id made so far: what a round creates is there for the operations of the same
  // round that read or move it (a control call on a new transfer, a read of a new invoice), lists first.
  // A snapshot is exported before the import that sends its document back, and a workspace deleted after
  // the calls on its clock. The round's invoices then go through their lifecycle in order: a payment (a
  // partial one over the counter issues a reference number), the counter confirmation of that reference,
  // then cancel and expire (each needs an invoice still pending, which the one before would have closed);
  // all faults are cleared after one was deleted (which needs one still there). The clock moves only at
  // the end: an hour ahead expires the round's invoices and settles its transfers, leaving nothing
  // pending to pay or settle. Within each part the order stays shuffled.
  const late = [
    ['exportSnapshot'], // a snapshot's document, which the import then sends back
    ['importSnapshot'],
    ['deleteWorkspace'], // after the calls on its clock
    ['payInvoice'],
    ['confirmCounterPayment'],
    ['cancelInvoice', 'expireInvoice', 'clearFaults'],
    ['advanceClock'],
    ['resetSandbox'],
  ];
  const part = (op: { operationId: string }) => {
    if (op.operationId === 'createWorkspace') return 0; // the round's snapshot is taken of it
    if (/^(create|place)/.test(op.operationId)) return 1;
    if (/^list/.test(op.operationId)) return 2; // what they answer (deliveries...) is there for the reads by id
    return late.findIndex((ids) => ids.includes(op.operationId)) + 4 || 3;
  };
  return Array.from({ length: late.length + 4 }, (_, p) => p).flatMap((p) =>
    shuffled.filter((op) => part(op) === p),
  );
}
