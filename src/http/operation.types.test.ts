import { describe, expect, expectTypeOf, it } from 'vitest';
import type { App, Merchant } from '../identities/identities.api.js';
import { ok, type Handlers, type OperationContext } from './operation.js';

// What a handler returns is checked against the document's response schemas when this file compiles
// (`npm run typecheck`): each `@ts-expect-error` below fails the typecheck if the line ever compiles.
const handlers: Handlers = {
  getHealth: () => ok({ status: 'ok' }),
  clearFaults: () => ({ status: 204 }),
};

const wrongBody: Handlers = {
  // @ts-expect-error the document's health body says `status: "ok"`
  getHealth: () => ok({ status: 'fine' }),
};

const wrongStatus: Handlers = {
  // @ts-expect-error getHealth answers 200 only
  getHealth: () => ok({ status: 'ok' }, 201),
};

const missingField: Handlers = {
  // @ts-expect-error an invoice envelope needs its invoice
  getInvoiceV3: () => ok({}),
};

// The caller, typed from the operation's security: no `!`, no optional where the document requires one.
expectTypeOf<OperationContext<'listInvoices'>['merchant']>().toEqualTypeOf<Merchant>();
expectTypeOf<OperationContext<'createInvoiceV1'>['merchant']>().toEqualTypeOf<Merchant>();
expectTypeOf<OperationContext<'getInvoiceV1'>['merchant']>().toEqualTypeOf<Merchant | undefined>();
expectTypeOf<OperationContext<'createTransfer'>['app']>().toEqualTypeOf<App>();
expectTypeOf<OperationContext<'listCryptoAccounts'>['app']>().toEqualTypeOf<App>();

// A control or public operation's handler receives neither; each line fails the typecheck if it compiles.
// @ts-expect-error a control operation has no merchant
export type ControlMerchant = OperationContext<'clearFaults'>['merchant'];
// @ts-expect-error nor an app
export type ControlApp = OperationContext<'getClock'>['app'];
// @ts-expect-error a merchant operation has no app
export type MerchantApp = OperationContext<'listInvoices'>['app'];
// @ts-expect-error a developer operation has no merchant
export type AppMerchant = OperationContext<'listTransfers'>['merchant'];
// @ts-expect-error a public operation has neither
export type PublicMerchant = OperationContext<'getHealth'>['merchant'];

describe('handler results typed from the document', () => {
  it('ok() carries the body and the status (200 unless given)', () => {
    expect(ok({ a: 1 })).toEqual({ status: 200, body: { a: 1 } });
    expect(ok({ a: 1 }, 201)).toEqual({ status: 201, body: { a: 1 } });
  });

  it('the handlers that compile answer what they were written to', async () => {
    const ctx = {} as OperationContext<never>;
    expect(await handlers.getHealth!(ctx)).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await handlers.clearFaults!(ctx)).toEqual({ status: 204 });
    expect([wrongBody, wrongStatus, missingField].every((h) => Object.keys(h).length === 1)).toBe(
      true,
    );
  });
});
