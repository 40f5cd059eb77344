/** Pending transfers settle on the sandbox clock: the tick finds the due ones through this index. */
export const sql = /* sql */ `
CREATE INDEX transfers_pending ON transfers(created_at, id) WHERE status = 'pending';
`;
