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
import { paginationCases } from './pagination.cases.js';

export interface CaseGroup {
  name: string;
  cases: ContractCase[];
}

/** The whole suite, in the order it runs (one target, one HMAC key queue, one sandbox clock). */
export const caseGroups: CaseGroup[] = [
  { name: 'authentication (§3)', cases: authCases },
  { name: 'invoices (§4)', cases: invoiceCases },
  { name: 'invoice inputs, lists and scoping (§4, §5)', cases: invoiceInputCases },
  { name: 'developer API (§4)', cases: developerCases },
  { name: 'money (§4)', cases: moneyCases },
  { name: 'pagination (§5)', cases: paginationCases },
  { name: 'lifecycle (§6)', cases: lifecycleCases },
  { name: 'callbacks and counter payments (§7, §9)', cases: callbackCases },
  { name: 'control API (§9)', cases: [...controlCases, ...controlAdminCases] },
];

export const allCases: ContractCase[] = caseGroups.flatMap((g) => g.cases);

const names = new Set<string>();
for (const c of allCases) {
  if (names.has(c.name)) throw new Error(`duplicate contract case name: ${c.name}`);
  names.add(c.name);
}
