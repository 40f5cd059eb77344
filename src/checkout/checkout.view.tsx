import { htmlDocument } from './html-document.js';
import { formatMoney } from '../shared/money.js';
import {
  countdownText,
  displayMoney,
  groupReference,
  pageUrl,
  statusLabel,
} from './checkout.format.js';
import { Layout, NotFoundPage } from './checkout.layout.js';
import type { CheckoutPage, NoticeKind, PayMethod } from './checkout.model.js';
import {
  CounterSection,
  SandboxChooser,
  WalletSection,
  type Outcome,
} from './checkout.options.view.js';

const METHOD_LABEL: Record<PayMethod, string> = {
  wallet: 'Peso wallet',
  counter: 'Over the counter',
};

const STATE_TEXT = {
  fully_paid: 'Payment received. Thank you!',
  expired: 'This invoice has expired and can no longer be paid.',
  canceled: 'This invoice was canceled and can no longer be paid.',
} as const;

/** The first words of each state's <title>, so a screen reader user hears what changed after an action. */
const STATE_TITLE = {
  fully_paid: 'Payment received',
  expired: 'Expired',
  canceled: 'Canceled',
} as const;
const NOTICE_TITLE: Record<NoticeKind, string> = {
  login_failed: 'Login failed',
  session_expired: 'Wallet session ended',
  insufficient_balance: 'Insufficient balance',
  unsupported_outlet: 'Outlet not available',
  sandbox_unavailable: 'Sandbox outcome failed',
  receiver_full: 'Payment refused',
  sandbox_receiver_full: 'Sandbox outcome failed',
};

const partlyPaid = (page: CheckoutPage) =>
  page.invoice.amountReceived > 0n && page.invoice.status === 'pending';

export function pageTitle(page: CheckoutPage): string {
  const inv = page.invoice;
  const suffix = ` — ${page.merchantName}, ${displayMoney(inv.amount, inv.currency)}`;
  if (inv.status !== 'pending') return STATE_TITLE[inv.status] + suffix;
  const due = partlyPaid(page) ? `${displayMoney(inv.amountDue, inv.currency)} still due` : null;
  let step = due ? `Partly paid, ${due}` : 'Choose how to pay';
  if (page.notice) step = NOTICE_TITLE[page.notice];
  else if (page.method === 'wallet') step = page.customer ? 'Confirm payment' : 'Wallet login';
  else if (page.method === 'counter')
    step = inv.referenceNumber
      ? `Reference number ${groupReference(inv.referenceNumber)}`
      : 'Choose an outlet';
  return (due && !step.startsWith('Partly') ? `${step} (${due})` : step) + suffix;
}

/**
 * The one element the script focuses and scrolls to on load: what the last action produced (its notice,
 * the Pay button, the reference number, the new state), so a phone user sees it without scrolling.
 */
export function outcomeOf(page: CheckoutPage): Outcome {
  const inv = page.invoice;
  if (inv.status !== 'pending') return 'state';
  if (page.notice) return 'notice';
  if (page.method === 'wallet' && page.customer && page.customer.balance >= inv.amountDue)
    return 'confirm';
  // Right after a part payment (no outlet just chosen) the news is what is still due, at the top.
  if (page.method === 'counter' && inv.referenceNumber && (page.outlet || !partlyPaid(page)))
    return 'reference';
  return partlyPaid(page) ? 'due' : null;
}

const Money = (p: { units: bigint; currency: string; testid?: string }) => (
  <span class="money" data-testid={p.testid}>
    {displayMoney(p.units, p.currency)}
  </span>
);

function Summary({ page, outcome }: { page: CheckoutPage; outcome: Outcome }) {
  const { invoice: inv } = page;
  const partly = partlyPaid(page);
  const badge = (
    <p
      class={`status status-${partly ? 'partly' : inv.status}`}
      data-testid="invoice-status"
      data-status={inv.status}
    >
      {statusLabel(inv.status, partly)}
    </p>
  );
  return (
    <section class="card" id="summary" aria-labelledby="summary-heading">
      <p class="merchant">Invoice from</p>
      <h1 id="summary-heading" data-testid="merchant-name">
        {page.merchantName}
      </h1>
      {partly ? (
        <>
          {badge}
          {/* Partly paid leads with what is left to pay; the full amount moves into the list below. */}
          <p
            class="amount"
            id="amount-due"
            tabindex={-1}
            data-outcome={outcome === 'due' ? '' : undefined}
          >
            <Money units={inv.amountDue} currency={inv.currency} testid="invoice-amount-due" />{' '}
            <span class="due-label">still due</span>
          </p>
        </>
      ) : (
        <>
          <p class="amount">
            <Money units={inv.amount} currency={inv.currency} testid="invoice-amount" />
          </p>
          {badge}
        </>
      )}
      <dl>
        {partly ? (
          <>
            <dt>Invoice amount</dt>
            <dd>
              <Money units={inv.amount} currency={inv.currency} testid="invoice-amount" />
            </dd>
            <dt>Received</dt>
            <dd>
              <Money
                units={inv.amountReceived}
                currency={inv.currency}
                testid="invoice-amount-received"
              />
            </dd>
          </>
        ) : null}
        {inv.description ? (
          <>
            <dt>Description</dt>
            <dd data-testid="invoice-description">{inv.description}</dd>
          </>
        ) : null}
        <dt>Merchant reference</dt>
        <dd data-testid="invoice-external-id">{inv.externalId}</dd>
        {inv.expiresInSeconds !== null ? (
          <>
            <dt>Expires in</dt>
            <dd>
              {/* A timer is silent for screen readers; the script announces 5 and 1 minute left instead. */}
              <span
                id="countdown"
                role="timer"
                data-testid="countdown"
                data-seconds={String(inv.expiresInSeconds)}
              >
                {countdownText(inv.expiresInSeconds)}
              </span>
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

/** Paid, expired and canceled invoices show their state instead of payment options; no timer, a link. */
function StatePanel({ page }: { page: CheckoutPage }) {
  const status = page.invoice.status;
  if (status === 'pending') return null;
  return (
    <section class="card" aria-labelledby="state-heading" data-testid="invoice-state">
      <h2 id="state-heading" tabindex={-1} data-outcome="">
        {STATE_TEXT[status]}
      </h2>
      {page.redirectTo ? (
        <p data-testid="redirect-notice">
          <a href={page.redirectTo} class="button" data-testid="merchant-redirect">
            Return to {page.merchantName}
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
            {/* `#pay` scrolls the chosen method's section into view when it opens. */}
            <a
              class="tab"
              href={`${pageUrl(page.invoice.id, m)}#pay`}
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

/** The hosted payment page for one invoice. Pure: the model in, HTML out. */
export function CheckoutView({ page }: { page: CheckoutPage }) {
  const { invoice: inv } = page;
  const base = `/payment/invoice/${encodeURIComponent(inv.id)}`;
  const pending = inv.status === 'pending';
  const outcome = outcomeOf(page);
  const data: Record<string, string> = {
    status: inv.status,
    received: formatMoney(inv.amountReceived),
    reload: pageUrl(inv.id, page.method, page.outlet?.id),
  };
  if (pending) {
    data.poll = `${base}/status`;
    if (page.returnUrl) data.return = page.returnUrl;
    if (inv.expiresInSeconds !== null) data.seconds = String(inv.expiresInSeconds);
  }
  return (
    <Layout title={pageTitle(page)} nonce={page.nonce} data={data}>
      <main id="main">
        <Summary page={page} outcome={outcome} />
        <StatePanel page={page} />
        {pending && page.methods.length ? (
          <>
            <h2 class="sr-only">Choose how to pay</h2>
            <MethodTabs page={page} />
          </>
        ) : null}
        {pending && page.method === 'wallet' ? (
          <WalletSection page={page} base={base} outcome={outcome} />
        ) : null}
        {pending && page.method === 'counter' ? (
          <CounterSection page={page} base={base} outcome={outcome} />
        ) : null}
        {pending && !page.methods.length ? (
          <p class="card" data-testid="no-options">
            This invoice has no payment option the sandbox offers.
          </p>
        ) : null}
        {page.sandboxChooser ? <SandboxChooser page={page} base={base} outcome={outcome} /> : null}
      </main>
    </Layout>
  );
}

export function renderCheckoutPage(page: CheckoutPage): string {
  return htmlDocument(<CheckoutView page={page} />);
}

export function renderNotFoundPage(nonce: string): string {
  return htmlDocument(<NotFoundPage nonce={nonce} />);
}
