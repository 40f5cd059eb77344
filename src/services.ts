import type { AppConfig } from './config.js';
import type { Db } from './db/open.js';
import { createEventDeliveryWriter } from './callbacks/event-delivery.writer.js';
import { createWriteBatch } from './db/unit-of-work.js';
import { createOutbox } from './events/outbox.repo.js';
import { createIdentityRepository } from './identities/identities.repo.js';
import { createInvoiceRepository } from './invoices/invoices.repo.js';
import { createInvoiceService } from './invoices/invoices.service.js';
import { createLedgerRepository } from './ledger/ledger.repo.js';
import { createAccountService } from './ledger/accounts.service.js';
import { createPaymentService } from './payments/payments.service.js';
import type { Clock } from './shared/clock.js';
import type { IdFactory } from './shared/ids.js';

export interface CoreDeps {
  db: Db;
  clock: Clock;
  ids: IdFactory;
  config: AppConfig;
}

/** Repositories and services, built from what they are given (no singletons). */
export function createServices(deps: CoreDeps) {
  const { db, clock, ids, config } = deps;
  // Each outbox event's delivery row is written by `outbox.append` in the event's transaction; the
  // merchant is looked up when an event is appended, by which time `identities` exists.
  const writeDelivery = createEventDeliveryWriter({ db, ids, merchantById: (id) => identities.merchantById(id) });
  const outbox = createOutbox(db, clock, ids, writeDelivery);
  const writeBatch = createWriteBatch(db, outbox);
  const unitOfWork = writeBatch.unit;
  const identities = createIdentityRepository(db, writeBatch.statement);
  writeBatch.onRollback(identities.forgetCached);
  const ledger = createLedgerRepository(db, clock, ids);
  const invoiceRepo = createInvoiceRepository(db);
  const invoices = createInvoiceService({
    invoices: invoiceRepo,
    outbox,
    unitOfWork,
    clock,
    ids,
    publicUrl: () => config.publicUrl,
    merchantById: identities.merchantById,
    expiryEvents: () => config.expiryEvents,
  });
  const payments = createPaymentService({
    invoices: invoiceRepo,
    invoiceService: invoices,
    ledger,
    identities,
    outbox,
    unitOfWork,
    clock,
    ids,
    expiryEvents: () => config.expiryEvents,
  });
  const accounts = createAccountService({ ledger });
  return { ...deps, outbox, writeBatch, unitOfWork, identities, ledger, invoiceRepo, invoices, payments, accounts };
}

export type Services = ReturnType<typeof createServices>;
