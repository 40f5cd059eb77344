import type { Child } from 'hono/jsx';
import { raw } from 'hono/html';
import { displayMoney, groupReference, pageUrl } from './checkout.format.js';
import { NOTICES, type CheckoutPage, type NoticeKind } from './checkout.model.js';
import { WalletBalance, WalletLoginFields } from './wallet-login.view.js';

/** Which element shows the outcome of the last action (see `outcomeOf`). */
export type Outcome = 'notice' | 'confirm' | 'reference' | 'state' | 'due' | null;

/** `data-outcome` marks the element the page script focuses and scrolls into view on load. */
const mark = (on: boolean) => (on ? '' : undefined);

const NOTICE_TESTID: Record<NoticeKind, string> = {
  login_failed: 'login-error',
  insufficient_balance: 'insufficient-balance',
  session_expired: 'session-expired',
  unsupported_outlet: 'outlet-error',
  sandbox_unavailable: 'sandbox-error',
  receiver_full: 'receiver-full',
  sandbox_receiver_full: 'sandbox-receiver-full',
};

export function Notice(p: { page: CheckoutPage; only: NoticeKind[]; children?: Child }) {
  const kind = p.page.notice;
  if (!kind || !p.only.includes(kind)) return null;
  return (
    <div
      class="notice"
      role="alert"
      id="notice"
      tabindex={-1}
      data-outcome=""
      data-testid={NOTICE_TESTID[kind]}
    >
      <p>{NOTICES[kind]}</p>
      {p.children}
    </div>
  );
}

const WALLET_NOTICES: NoticeKind[] = [
  'login_failed',
  'insufficient_balance',
  'session_expired',
  'receiver_full',
];

/** What is missing from the wallet, and the other way to pay when the invoice has one. */
function Shortfall({ page }: { page: CheckoutPage }) {
  const { invoice, customer } = page;
  if (!customer || page.notice !== 'insufficient_balance' || customer.balance >= invoice.amountDue)
    return null;
  return (
    <>
      <p>
        You need{' '}
        <strong class="money" data-testid="shortfall">
          {displayMoney(invoice.amountDue - customer.balance, invoice.currency)}
        </strong>{' '}
        more: your wallet holds{' '}
        <span class="money">{displayMoney(customer.balance, customer.currency)}</span>, this invoice
        asks for <span class="money">{displayMoney(invoice.amountDue, invoice.currency)}</span>.
      </p>
      {page.methods.includes('counter') ? (
        <p>
          <a href={`${pageUrl(invoice.id, 'counter')}#pay`} data-testid="pay-counter-instead">
            Pay over the counter instead
          </a>
        </p>
      ) : null}
    </>
  );
}

/** Wallet: log in with a customer's credentials, see the balance, confirm. */
export function WalletSection({
  page,
  base,
  outcome,
}: {
  page: CheckoutPage;
  base: string;
  outcome: Outcome;
}) {
  const { invoice, customer, notice } = page;
  const failed = notice === 'login_failed';
  return (
    <section class="card" id="pay" aria-labelledby="wallet-heading" data-testid="wallet-section">
      <h2 id="wallet-heading">Pay with your peso wallet</h2>
      <Notice page={page} only={WALLET_NOTICES}>
        <Shortfall page={page} />
      </Notice>
      {customer ? (
        <>
          <p>
            Logged in as <strong data-testid="wallet-customer">{customer.name}</strong>
          </p>
          <WalletBalance
            balance={customer.balance}
            currency={customer.currency}
            pay={invoice.amountDue}
            payCurrency={invoice.currency}
          />
          {customer.balance >= invoice.amountDue ? (
            <form method="post" action={`${base}/wallet/confirm`}>
              <button
                type="submit"
                data-testid="confirm-payment"
                data-outcome={mark(outcome === 'confirm')}
              >
                Pay {displayMoney(invoice.amountDue, invoice.currency)}
              </button>
            </form>
          ) : null}
          <form method="post" action={`${base}/wallet/logout`}>
            <button type="submit" class="link" data-testid="wallet-logout">
              Use another account
            </button>
          </form>
        </>
      ) : (
        <form method="post" action={`${base}/wallet/login`}>
          <WalletLoginFields loginValue={page.loginValue} failed={failed} />
        </form>
      )}
    </section>
  );
}

/** The reference number, grouped for reading aloud, tied to its caption, with a copy button. */
function Ticket({ page, focus }: { page: CheckoutPage; focus: boolean }) {
  const ref = page.invoice.referenceNumber!;
  return (
    <figure class="ticket">
      <figcaption id="ref-caption">Reference number</figcaption>
      <p
        class="ref"
        tabindex={-1}
        aria-describedby="ref-caption"
        data-outcome={mark(focus)}
        data-testid="reference-number"
        data-reference={ref}
      >
        {groupReference(ref)}
      </p>
      {/* Shown by the script only where the clipboard can be written. */}
      <button
        type="button"
        class="secondary copy"
        data-copy={ref}
        aria-describedby="ref-caption"
        data-testid="copy-reference"
        hidden
      >
        Copy number
      </button>
    </figure>
  );
}

/** Over the counter: choose an outlet, get the reference number and its Code 128 barcode. */
export function CounterSection({
  page,
  base,
  outcome,
}: {
  page: CheckoutPage;
  base: string;
  outcome: Outcome;
}) {
  const { invoice, outlet, outlets } = page;
  return (
    <section class="card" id="pay" aria-labelledby="counter-heading" data-testid="counter-section">
      <h2 id="counter-heading">Pay over the counter</h2>
      <Notice page={page} only={['unsupported_outlet']} />
      {invoice.referenceNumber ? (
        <div data-testid="counter-ticket">
          <Ticket page={page} focus={outcome === 'reference'} />
          {page.barcode ? <figure class="barcode">{raw(page.barcode)}</figure> : null}
          <p data-testid="outlet-instructions">
            {outlet ? (
              <>
                <strong>At {outlet.name}:</strong> {outlet.instructions}
              </>
            ) : (
              'Give this reference number at any of the outlets below and pay in cash.'
            )}
          </p>
          <p class="muted">
            Pay <span class="money">{displayMoney(invoice.amountDue, invoice.currency)}</span>. This
            page updates by itself once the outlet confirms your payment.
          </p>
        </div>
      ) : (
        <p>
          Choose where you will pay. You will get a reference number and a barcode to show at the
          counter.
        </p>
      )}
      <h3>{invoice.referenceNumber ? 'Pay at another outlet' : 'Choose an outlet'}</h3>
      <form method="post" action={`${base}/counter`}>
        <ul class="outlets">
          {outlets.map((o) => (
            <li>
              <button
                type="submit"
                class="secondary"
                name="outlet"
                value={o.id}
                data-testid="outlet-option"
                data-outlet={o.name}
              >
                {o.name}
              </button>
            </li>
          ))}
        </ul>
      </form>
    </section>
  );
}

/** Sandbox only: drive the invoice without credentials, so a browser test never needs real ones. */
export function SandboxChooser({
  page,
  base,
}: {
  page: CheckoutPage;
  base: string;
  outcome: Outcome;
}) {
  return (
    <section class="card sandbox" aria-labelledby="sandbox-heading" data-testid="sandbox-chooser">
      <h2 id="sandbox-heading">Sandbox: choose an outcome</h2>
      <Notice page={page} only={['sandbox_unavailable', 'sandbox_receiver_full']} />
      <p class="muted">
        Skip the payment steps and make something happen to this invoice right now.
      </p>
      <form method="post" action={`${base}/sandbox`} class="choices">
        <button type="submit" name="outcome" value="full" data-testid="sandbox-pay-full">
          Pay in full
        </button>
        <button type="submit" name="outcome" value="part" data-testid="sandbox-pay-part">
          Pay part (half)
        </button>
        <button type="submit" name="outcome" value="expire" data-testid="sandbox-expire">
          Let it expire
        </button>
      </form>
    </section>
  );
}
