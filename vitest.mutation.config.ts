import { defineConfig } from 'vitest/config';

/**
 * The tests Stryker runs against each mutant (stryker.config.json): the unit and in-process HTTP tests
 * aimed at the mutated files. Browser, child-process and kill -9 tests are left out, and so are the broad
 * HTTP suites of other modules (orders, transfers, outlets): every HTTP test passes through the auth,
 * money and paging code, so each of them would run against hundreds of mutants for little new signal.
 * The payments property test (200 random sequences) stays in `npm test`: against a surviving mutant it
 * would run all 200 sequences, and the lifecycle and control tests pin the same rules case by case.
 */
export default defineConfig({
  test: {
    include: [
      'src/auth/*.test.ts',
      'src/ledger/*.test.ts',
      'src/shared/money.test.ts',
      'src/shared/pagination.test.ts',
      'src/payments/payments.lifecycle.test.ts',
      'src/payments/counter-collector.test.ts',
      'src/payments/payments.service.test.ts',
      'src/invoices/invoices.test.ts',
      'src/invoices/invoice-create.test.ts',
      'src/invoices/invoice-reads.test.ts',
      'src/invoices/invoice-expiry.test.ts',
      'src/control/control-token.test.ts',
      'src/control/invoice-control.test.ts',
      'src/control/otc-payments.test.ts',
      'src/control/invoice-expire-cancel.test.ts',
      'src/control/trigger-event.test.ts',
      'src/client/nonce.source.test.ts',
    ],
    pool: 'forks',
    // Stryker switches mutants at run time (a global read by the instrumented code), so a worker can keep
    // the module graph it imported between test files and between mutants instead of re-importing the
    // whole sandbox for each: most of the cost of a mutant on this suite.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
