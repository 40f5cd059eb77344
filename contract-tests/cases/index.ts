import type { ContractCase } from '../harness/case.context.js';
import { authCases } from './auth.cases.js';
import { callbackCases } from './callbacks.cases.js';
import { controlAdminCases } from './control-admin.cases.js';
import { controlCases } from './control.cases.js';
import { developerCases } from './developer.cases.js';
import { invoiceInputCases } from './invoice-inputs.cases.js';
import { invoiceCases } from './invoices.cases.js';
import { lifecycleCases } from './lifecycle.cases.js';
import { moneyCases } from './money.cases.js';
import { orderCases } from './orders.cases.js';
import { outletCases } from './outlets.cases.js';
import { oauthCases } from './oauth.cases.js';
import { paginationCases } from './pagination.cases.js';
import { walletCases } from './wallet.cases.js';

export interface CaseGroup {
  /** The area: JUnit's classname and the progress line's label (auth, invoices, paging, …). */
  area: string;
  /** What the area covers, for people. */
  title: string;
  cases: ContractCase[];
}

/** The whole suite, in the order it runs (one target, one HMAC key queue, one sandbox clock). */
export const caseGroups: CaseGroup[] = [
  { area: 'auth', title: 'merchant token and HMAC authentication, routing', cases: authCases },
  { area: 'invoices', title: 'invoice create, retrieve and errors', cases: invoiceCases },
  {
    area: 'invoice-inputs',
    title: 'invoice inputs, list filters and merchant scoping',
    cases: invoiceInputCases,
  },
  {
    area: 'developer',
    title: 'wallet accounts, fees, orders and lookups of the developer API',
    cases: developerCases,
  },
  {
    area: 'outlets',
    title: 'payout and pay-in outlets, fees, categories, sell quote, field validation',
    cases: outletCases,
  },
  { area: 'money', title: 'transfers, sell orders and OTP', cases: moneyCases },
  { area: 'orders', title: "sell and buy orders at the public clients' paths", cases: orderCases },
  {
    area: 'wallet',
    title: 'conversions, crypto payments and payment requests',
    cases: walletCases,
  },
  { area: 'paging', title: 'every page of every list', cases: paginationCases },
  {
    area: 'lifecycle',
    title: 'payments, expiry and cancellation of an invoice',
    cases: lifecycleCases,
  },
  { area: 'callbacks', title: 'callback deliveries and counter payments', cases: callbackCases },
  {
    area: 'control',
    title: 'the sandbox control API',
    cases: [...controlCases, ...controlAdminCases],
  },
  {
    area: 'oauth',
    title: 'OAuth2 Bearer tokens of an app on the developer API',
    cases: oauthCases,
  },
];

/** The area of a case, by its name. */
export const areaOf = new Map(
  caseGroups.flatMap((g) => g.cases.map((c) => [c.name, g.area] as const)),
);

export const allCases: ContractCase[] = caseGroups.flatMap((g) => g.cases);

const names = new Set<string>();
for (const c of allCases) {
  if (names.has(c.name)) throw new Error(`duplicate contract case name: ${c.name}`);
  names.add(c.name);
}
