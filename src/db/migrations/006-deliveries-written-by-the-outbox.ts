/**
 * The delivery row of each outbox event is written by `outbox.append` in TypeScript
 * (src/callbacks/event-delivery.writer.ts), in the same transaction as the event, instead of by a
 * trigger: a reader following `outbox.append` finds where deliveries come from, and the failure
 * reasons live once, next to the dispatcher that also gives them.
 */
export const sql = /* sql */ `
DROP TRIGGER outbox_events_delivery;
`;
