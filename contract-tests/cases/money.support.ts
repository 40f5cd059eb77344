import type { DeveloperClient } from '../../src/client/index.js';
import { required } from '../../src/shared/defined.js';
import type { CaseContext } from '../harness/case.context.js';

/** What the money cases share: the peso wallet they pay from, and who receives a transfer. */

/** The application owner's peso wallet (currency PBTC on the wire); none is drift. */
export async function pesoAccount(ctx: CaseContext, dev: DeveloperClient = ctx.dev) {
  const page = await dev.listCryptoAccounts({ currency: 'PBTC', per_page: 100 });
  return ctx.expectPresent(
    page['crypto-accounts'][0],
    'the application owner has no peso wallet account (currency PBTC)',
    'listCryptoAccounts',
  );
}

export const needsTransferTarget = (t: { creds: { transferTarget?: string } }) =>
  t.creds.transferTarget
    ? undefined
    : 'needs someone to receive the transfer: set CONTRACT_TRANSFER_TARGET (account id, email or mobile number)';

/** Who receives the case's transfer (a case that asks for one `needs: needsTransferTarget`). */
export const transferTarget = (ctx: CaseContext) =>
  required(ctx.creds.transferTarget, 'CONTRACT_TRANSFER_TARGET (the case needs it)');
