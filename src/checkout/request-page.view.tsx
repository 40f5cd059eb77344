import { htmlDocument } from './html-document.js';
import { PAYMENT_REQUEST_PAGE } from '../wallet/payment-requests.service.js';
import { displayMoney, walletName } from './checkout.format.js';
import { Layout } from './checkout.layout.js';
import {
  REQUEST_NOTICES,
  type RequestNotice,
  type RequestPage,
  type RequestStatus,
} from './request-page.service.js';
import { WalletBalance, WalletLoginFields } from './wallet-login.view.js';

const STATUS_LABEL: Record<RequestStatus, string> = {
  pending: 'Awaiting your answer',
  paid: 'Paid',
  declined: 'Declined',
  expired: 'Expired',
  canceled: 'Canceled',
};

const STATE_TEXT: Record<Exclude<RequestStatus, 'pending'>, string> = {
  paid: 'Paid. The money was sent from your wallet.',
  declined: 'Declined. No money was sent.',
  expired: 'This request has expired and can no longer be paid.',
  canceled: 'The requester canceled this request: it can no longer be paid.',
};

const NOTICE_TITLE: Record<RequestNotice, string> = {
  login_failed: 'Login failed',
  session_expired: 'Wallet session ended',
  insufficient_balance: 'Insufficient balance',
  wrong_payer: 'Not your request',
  receiver_full: 'Payment refused',
};

const NOTICE_TESTID: Record<RequestNotice, string> = {
  login_failed: 'login-error',
  session_expired: 'session-expired',
  insufficient_balance: 'insufficient-balance',
  wrong_payer: 'wrong-payer',
  receiver_full: 'receiver-full',
};

export const requestPagePath = (id: string) => `${PAYMENT_REQUEST_PAGE}/${encodeURIComponent(id)}`;

/** The first words of the <title> say the state or the step, so a screen reader user hears what changed. */
export function requestTitle(page: RequestPage): string {
  const suffix = ` — payment request from ${page.requesterName}, ${displayMoney(page.amount, page.currency)}`;
  let step: string;
  if (page.notice) step = NOTICE_TITLE[page.notice];
  else if (page.status !== 'pending') step = STATUS_LABEL[page.status];
  else step = page.customer ? 'Pay or decline' : 'Wallet login';
  return step + suffix;
}

/** `2026-12-01T10:00:00Z` as `2026-12-01 10:00 UTC`. */
const readableTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

function Summary({ page }: { page: RequestPage }) {
  return (
    <section class="card" id="summary" aria-labelledby="summary-heading">
      <p class="merchant">Payment request from</p>
      <h1 id="summary-heading" data-testid="requester-name">
        {page.requesterName}
      </h1>
      <p class="amount">
        <span class="money" data-testid="request-amount">
          {displayMoney(page.amount, page.currency)}
        </span>
      </p>
      <p
        class={`status status-${page.status}`}
        data-testid="request-status"
        data-status={page.status}
      >
        {STATUS_LABEL[page.status]}
      </p>
      <dl>
        {page.message ? (
          <>
            <dt>Message</dt>
            <dd data-testid="request-message">{page.message}</dd>
          </>
        ) : null}
        <dt>Sent to</dt>
        <dd data-testid="request-payer">{page.payerContact}</dd>
        <dt>{page.status === 'expired' ? 'Expired' : 'Expires'}</dt>
        <dd>
          <time datetime={page.expiresAt} data-testid="request-expiry">
            {readableTime(page.expiresAt)}
          </time>
        </dd>
      </dl>
    </section>
  );
}

/** The one message of the last action, focused on load (the page script focuses `[data-outcome]`). */
function Notice({ page }: { page: RequestPage }) {
  if (!page.notice) return null;
  const shortfall =
    page.notice === 'insufficient_balance' && page.customer
      ? page.amount - page.customer.balance
      : 0n;
  return (
    <div
      class="notice"
      role="alert"
      id="notice"
      tabindex={-1}
      data-outcome=""
      data-testid={NOTICE_TESTID[page.notice]}
    >
      <p>{REQUEST_NOTICES[page.notice]}</p>
      {shortfall > 0n ? (
        <p>
          You need{' '}
          <strong class="money" data-testid="shortfall">
            {displayMoney(shortfall, page.currency)}
          </strong>{' '}
          more.
        </p>
      ) : null}
    </div>
  );
}

function StatePanel({ page }: { page: RequestPage }) {
  if (page.status === 'pending') return null;
  return (
    <section class="card" aria-labelledby="state-heading" data-testid="request-state">
      <h2 id="state-heading" tabindex={-1} data-outcome={page.notice ? undefined : ''}>
        {STATE_TEXT[page.status]}
      </h2>
      <p class="muted">You can close this page.</p>
    </section>
  );
}

function LoginForm({ page }: { page: RequestPage }) {
  const failed = page.notice === 'login_failed';
  return (
    <form method="post" action={`${requestPagePath(page.id)}/wallet/login`}>
      <p>Log in with the wallet this request was sent to.</p>
      <WalletLoginFields loginValue={page.loginValue} failed={failed} />
    </form>
  );
}

/** Logged in: the balance, and Pay / Decline for the payer alone. */
function Answer({ page }: { page: RequestPage }) {
  const customer = page.customer!;
  const canPay = page.isPayer && customer.balance >= page.amount;
  return (
    <>
      <p>
        Logged in as <strong data-testid="wallet-customer">{customer.name}</strong>
      </p>
      {page.isPayer ? (
        <WalletBalance
          balance={customer.balance}
          currency={customer.currency}
          pay={page.amount}
          payCurrency={page.currency}
        />
      ) : null}
      {canPay ? (
        <form method="post" action={`${requestPagePath(page.id)}/pay`}>
          <button
            type="submit"
            data-testid="request-pay"
            data-outcome={page.notice ? undefined : ''}
          >
            Pay {displayMoney(page.amount, page.currency)}
          </button>
        </form>
      ) : null}
      {page.isPayer ? (
        <form method="post" action={`${requestPagePath(page.id)}/decline`}>
          <button type="submit" class="secondary" data-testid="request-decline">
            Decline
          </button>
        </form>
      ) : null}
      <form method="post" action={`${requestPagePath(page.id)}/wallet/logout`}>
        <button type="submit" class="link" data-testid="wallet-logout">
          Use another account
        </button>
      </form>
    </>
  );
}

/** The payer's page of one payment request. Pure: the model in, HTML out. */
export function RequestView({ page }: { page: RequestPage }) {
  const pending = page.status === 'pending';
  return (
    <Layout title={requestTitle(page)} nonce={page.nonce} data={{ status: page.status }}>
      <main id="main">
        <Summary page={page} />
        {pending ? null : <Notice page={page} />}
        <StatePanel page={page} />
        {pending ? (
          <section
            class="card"
            id="pay"
            aria-labelledby="answer-heading"
            data-testid="request-answer"
          >
            <h2 id="answer-heading" data-testid="answer-heading">
              Answer with your {walletName(page.currency)}
            </h2>
            <Notice page={page} />
            {page.customer ? <Answer page={page} /> : <LoginForm page={page} />}
          </section>
        ) : null}
      </main>
    </Layout>
  );
}

export function renderRequestPage(page: RequestPage): string {
  return htmlDocument(<RequestView page={page} />);
}

/** `GET /payment/request/{unknown}`: an HTML 404. */
export function renderRequestNotFound(nonce: string): string {
  return htmlDocument(
    <Layout title="Payment request not found — paysandbox" nonce={nonce} script={false}>
      <main id="main">
        <div class="card">
          <h1 data-testid="not-found">Payment request not found</h1>
          <p>
            There is no payment request at this address. Check the link you were given, or ask the
            sender for a new one.
          </p>
        </div>
      </main>
    </Layout>,
  );
}
