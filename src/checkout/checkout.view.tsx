import { formatMoney } from '../shared/money.js';
import { countdownText, displayMoney, pageUrl, statusLabel } from './checkout.format.js';
import { Layout, NotFoundPage, REDIRECT_DELAY_SECONDS } from './checkout.layout.js';
import type { CheckoutPage, PayMethod } from './checkout.model.js';
import { CounterSection, SandboxChooser, WalletSection } from './checkout.options.view.js';

const METHOD_LABEL: Record<PayMethod, string> = { wallet: 'Peso wallet', counter: 'Over the counter' };

const STATE_TEXT = {
  fully_paid: 'Payment received. Thank you!',
  expired: 'This invoice has expired and can no longer be paid.',
  canceled: 'This invoice was canceled and can no longer be paid.',
} as const;

function Summary({ page }: { page: CheckoutPage }) {
  const { invoice: inv } = page;
  const partly = inv.amountReceived > 0n && inv.status === 'pending';
  return (
    <section class="card" aria-labelledby="summary-heading">
      <p class="merchant">Invoice from</p>
      <h1 id="summary-heading" data-testid="merchant-name">
        {page.merchantName}
      </h1>
      <p class="amount" data-testid="invoice-amount">
        {displayMoney(inv.amount, inv.currency)}
      </p>
      <p id="live" class={`status status-${inv.status}`} role="status" aria-live="polite" data-testid="invoice-status" data-status={inv.status}>
        {statusLabel(inv.status, partly)}
      </p>
      <dl>
        {inv.description ? (
          <>
            <dt>Description</dt>
            <dd data-testid="invoice-description">{inv.description}</dd>
          </>
        ) : null}
        <dt>Merchant reference</dt>
        <dd data-testid="invoice-external-id">{inv.externalId}</dd>
        {partly ? (
          <>
            <dt>Received</dt>
            <dd data-testid="invoice-amount-received">{displayMoney(inv.amountReceived, inv.currency)}</dd>
            <dt>Still due</dt>
            <dd data-testid="invoice-amount-due">{displayMoney(inv.amountDue, inv.currency)}</dd>
          </>
        ) : null}
        {inv.expiresInSeconds !== null ? (
          <>
            <dt>Expires in</dt>
            <dd>
              <span id="countdown" role="timer" data-testid="countdown" data-seconds={String(inv.expiresInSeconds)}>
                {countdownText(inv.expiresInSeconds)}
              </span>
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

/** Paid, expired and canceled invoices show their state instead of payment options. */
function StatePanel({ page }: { page: CheckoutPage }) {
  const status = page.invoice.status;
  if (status === 'pending') return null;
  return (
    <section class="card" aria-labelledby="state-heading" data-testid="invoice-state">
      <h2 id="state-heading">{STATE_TEXT[status]}</h2>
      {page.redirectTo ? (
        <p data-testid="redirect-notice">
          You will be taken back to {page.merchantName} in {REDIRECT_DELAY_SECONDS} seconds.{' '}
          <a href={page.redirectTo} data-testid="merchant-redirect">
            Return to {page.merchantName} now
          </a>
        </p>
      ) : (
        <p class="muted">You can close this page.</p>
      )}
    </section>
  );
}

function MethodTabs({ page }: { page: CheckoutPage }) {
  return (
    <nav aria-label="Payment method">
      <ul class="tabs">
        {page.methods.map((m) => (
          <li>
            <a
              class="tab"
              href={pageUrl(page.invoice.id, m)}
              aria-current={page.method === m ? 'page' : undefined}
              data-testid={m === 'wallet' ? 'pay-wallet' : 'pay-counter'}
            >
              {METHOD_LABEL[m]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The hosted payment page for one invoice (sandbox.md §8). Pure: the model in, HTML out. */
export function CheckoutView({ page }: { page: CheckoutPage }) {
  const { invoice: inv } = page;
  const base = `/payment/invoice/${encodeURIComponent(inv.id)}`;
  const pending = inv.status === 'pending';
  const data: Record<string, string> = {
    status: inv.status,
    received: formatMoney(inv.amountReceived),
    reload: pageUrl(inv.id, page.method, page.outlet?.id),
  };
  if (pending) {
    data.poll = `${base}/status`;
    if (inv.expiresInSeconds !== null) data.seconds = String(inv.expiresInSeconds);
  }
  return (
    <Layout title={`Pay ${page.merchantName}: ${displayMoney(inv.amount, inv.currency)}`} nonce={page.nonce} refreshTo={page.redirectTo} data={data}>
      <main id="main">
        <Summary page={page} />
        <StatePanel page={page} />
        {pending && page.methods.length ? (
          <>
            <h2 class="sr-only">Choose how to pay</h2>
            <MethodTabs page={page} />
          </>
        ) : null}
        {pending && page.method === 'wallet' ? <WalletSection page={page} base={base} /> : null}
        {pending && page.method === 'counter' ? <CounterSection page={page} base={base} /> : null}
        {pending && !page.methods.length ? (
          <p class="card" data-testid="no-options">
            This invoice has no payment option the sandbox offers.
          </p>
        ) : null}
        {page.sandboxChooser ? <SandboxChooser page={page} base={base} /> : null}
      </main>
    </Layout>
  );
}

export function renderCheckoutPage(page: CheckoutPage): string {
  return '<!doctype html>' + String(<CheckoutView page={page} />);
}

export function renderNotFoundPage(nonce: string): string {
  return '<!doctype html>' + String(<NotFoundPage nonce={nonce} />);
}
