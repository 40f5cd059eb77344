/**
 * Test support for the hosted invoice page's tests (checkout.page.test.ts, checkout.page-states.test.ts).
 */

/** The hosted payment page of an invoice (its payment_url's path). */
export const path = (id: string) => `/payment/invoice/${id}`;
