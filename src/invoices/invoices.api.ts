/**
 * What the invoices module gives other modules, in domain types; its tables are its own. Other modules
 * read invoices through the invoice service (`load`, `byId` …), never through its repository.
 */

export type InvoiceStatus = 'pending' | 'fully_paid' | 'expired' | 'canceled';

/** An invoice (docs/design.md#invoice-lifecycle-and-events); money and times exact (BigInt). */
export interface Invoice {
  id: string;
  merchant_id: string;
  status: InvoiceStatus;
  amount: bigint;
  amount_received: bigint;
  currency: string;
  external_transaction_id: string;
  description: string;
  metadata: string;
  /** Parsed once as the invoice is read (stored as a JSON list); shared and frozen, never to be changed. */
  supported_payment_collectors: readonly string[];
  current_payment_reference_number: string | null;
  /** The counter collector the reference was issued for. */
  current_payment_collector: string | null;
  created_at: bigint;
  updated_at: bigint;
  expires_at: bigint;
}

/** One settled payment of an invoice. */
export interface Payment {
  id: string;
  invoice_id: string;
  amount: bigint;
  payment_collector: string;
  reference_number: string | null;
  payer_account_id: string | null;
  ledger_transaction_id: string | null;
  created_at: bigint;
}
