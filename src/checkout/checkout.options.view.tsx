import { raw } from 'hono/html';
import { displayMoney } from './checkout.format.js';
import { NOTICES, type CheckoutPage, type NoticeKind } from './checkout.model.js';

const NOTICE_TESTID: Record<NoticeKind, string> = {
  login_failed: 'login-error',
  insufficient_balance: 'insufficient-balance',
  session_expired: 'session-expired',
  unsupported_outlet: 'outlet-error',
  sandbox_unavailable: 'sandbox-error',
};

export function Notice(p: { kind: NoticeKind | null; only?: NoticeKind[] }) {
  if (!p.kind || (p.only && !p.only.includes(p.kind))) return null;
  return (
    <p class="notice" role="alert" id="notice" data-testid={NOTICE_TESTID[p.kind]}>
      {NOTICES[p.kind]}
    </p>
  );
}

const WALLET_NOTICES: NoticeKind[] = ['login_failed', 'insufficient_balance', 'session_expired'];

/** Wallet: log in with a customer's credentials, see the balance, confirm (sandbox.md §8). */
export function WalletSection({ page, base }: { page: CheckoutPage; base: string }) {
  const { invoice, customer, notice } = page;
  const failed = notice === 'login_failed';
  return (
    <section class="card" aria-labelledby="wallet-heading" data-testid="wallet-section">
      <h2 id="wallet-heading">Pay with your peso wallet</h2>
      <Notice kind={notice} only={WALLET_NOTICES} />
      {customer ? (
        <>
          <p>
            Logged in as <strong data-testid="wallet-customer">{customer.name}</strong>
          </p>
          <dl>
            <dt>Wallet balance</dt>
            <dd data-testid="wallet-balance">{displayMoney(customer.balance, customer.currency)}</dd>
            <dt>You pay</dt>
            <dd>{displayMoney(invoice.amountDue, invoice.currency)}</dd>
          </dl>
          {customer.balance >= invoice.amountDue ? (
            <form method="post" action={`${base}/wallet/confirm`}>
              <button type="submit" data-testid="confirm-payment">
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
          <label for="login">Email or mobile number</label>
          <input
            id="login"
            name="login"
            type="text"
            inputmode="email"
            autocomplete="username"
            autocapitalize="none"
            spellcheck={false}
            required
            maxlength={254}
            value={page.loginValue}
            aria-invalid={failed ? 'true' : 'false'}
            aria-describedby={failed ? 'notice' : undefined}
            data-testid="login-email"
          />
          <label for="password">Password</label>
          <input
            id="password"
            name="password"
            type="password"
            autocomplete="current-password"
            required
            maxlength={256}
            aria-invalid={failed ? 'true' : 'false'}
            aria-describedby={failed ? 'notice' : undefined}
            data-testid="login-password"
          />
          <button type="submit" data-testid="login-submit">
            Log in
          </button>
        </form>
      )}
    </section>
  );
}

/** Over the counter: choose an outlet, get the reference number and its Code 128 barcode. */
export function CounterSection({ page, base }: { page: CheckoutPage; base: string }) {
  const { invoice, outlet, outlets } = page;
  return (
    <section class="card" aria-labelledby="counter-heading" data-testid="counter-section">
      <h2 id="counter-heading">Pay over the counter</h2>
      <Notice kind={page.notice} only={['unsupported_outlet']} />
      {invoice.referenceNumber ? (
        <div data-testid="counter-ticket">
          <p class="muted">Reference number</p>
          <p class="ref" data-testid="reference-number">
            {invoice.referenceNumber}
          </p>
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
            Pay {displayMoney(invoice.amountDue, invoice.currency)}. This page updates by itself once the outlet confirms your
            payment.
          </p>
        </div>
      ) : (
        <p>Choose where you will pay. You will get a reference number and a barcode to show at the counter.</p>
      )}
      <h3>{invoice.referenceNumber ? 'Outlets' : 'Choose an outlet'}</h3>
      <form method="post" action={`${base}/counter`}>
        <ul class="outlets">
          {outlets.map((o) => (
            <li>
              <button
                type="submit"
                name="outlet"
                value={o.id}
                aria-pressed={outlet?.id === o.id ? 'true' : 'false'}
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
export function SandboxChooser({ page, base }: { page: CheckoutPage; base: string }) {
  return (
    <section class="card sandbox" aria-labelledby="sandbox-heading" data-testid="sandbox-chooser">
      <h2 id="sandbox-heading">Sandbox: choose an outcome</h2>
      <Notice kind={page.notice} only={['sandbox_unavailable']} />
      <p class="muted">Skip the payment steps and make something happen to this invoice right now.</p>
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
