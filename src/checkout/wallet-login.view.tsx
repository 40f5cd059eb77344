import { displayMoney } from './checkout.format.js';

/**
 * The wallet pieces of the hosted pages (an invoice's and a payment request's): one login form and one
 * balance summary for both, so a fix to their accessibility or autofill reaches every page.
 */
export function WalletLoginFields({ loginValue, failed }: { loginValue: string; failed: boolean }) {
  return (
    <>
      <label for="login">Email or mobile number</label>
      {/* type=text with no inputmode: a mobile number must not open the email keyboard. */}
      <input
        id="login"
        name="login"
        type="text"
        autocomplete="username"
        autocapitalize="none"
        spellcheck={false}
        required
        maxlength={254}
        value={loginValue}
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
    </>
  );
}

/** The logged-in wallet's balance beside what the payment takes from it. */
export function WalletBalance(p: {
  balance: bigint;
  currency: string;
  pay: bigint;
  payCurrency: string;
}) {
  return (
    <dl>
      <dt>Wallet balance</dt>
      <dd class="money" data-testid="wallet-balance">
        {displayMoney(p.balance, p.currency)}
      </dd>
      <dt>You pay</dt>
      <dd class="money">{displayMoney(p.pay, p.payCurrency)}</dd>
    </dl>
  );
}
