import type { Schemas } from '../spec/operations.generated.js';
import type * as C from './client.types.js';
import type * as D from './developer.types.js';

/**
 * Compile-time check that the client's wire types say what the document says (generated into
 * src/spec/operations.generated.ts): a field added, dropped or retyped on one side and not the other
 * fails `npm run typecheck`. The client keeps its own names and comments for integrators.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Check<T extends true> = T;

export type WireTypesMatchTheDocument = [
  Check<Same<C.Money, Schemas['Money']>>,
  Check<Same<C.InvoiceStatus, Schemas['InvoiceStatus']>>,
  Check<Same<C.PaymentCollector, Schemas['PaymentCollector']>>,
  Check<Same<C.Payment, Schemas['Payment']>>,
  Check<Same<C.Invoice, Schemas['Invoice']>>,
  Check<Same<D.CryptoAccount, Schemas['CryptoAccount']>>,
  Check<Same<D.SellOrderStatus, Schemas['SellOrderStatus']>>,
  Check<Same<D.SellOrder, Schemas['SellOrder']>>,
  Check<Same<D.SellOrderHistoryItem, Schemas['SellOrderHistoryItem']>>,
  Check<Same<D.BuyOrderStatus, Schemas['BuyOrderStatus']>>,
  Check<Same<D.BuyOrder, Schemas['BuyOrder']>>,
  Check<Same<D.Transfer, Schemas['Transfer']>>,
  Check<Same<D.PayoutOutlet, Schemas['PayoutOutlet']>>,
  Check<Same<C.PageMeta, Schemas['PageMeta']>>,
  Check<Same<C.OffsetMeta, Schemas['OffsetMeta']>>,
];
