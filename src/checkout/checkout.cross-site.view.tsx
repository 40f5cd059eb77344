import { htmlDocument } from './html-document.js';
import { Layout } from './checkout.layout.js';

/**
 * A form post from another site (its `Origin`, or `Referer`, is not the sandbox): a 403 page that says
 * so, with a way to the page itself. Nothing was done.
 */
export function renderCrossSitePage(
  nonce: string,
  source: string,
  backTo: string,
  hostHint?: string,
): string {
  return htmlDocument(
    <Layout title="Request refused" nonce={nonce} script={false}>
      <main id="main">
        <div class="card">
          <h1 data-testid="cross-site">Request refused</h1>
          <p>
            This form was sent from another site (
            <code data-testid="cross-site-origin">{source}</code>), not from this payment page, so
            nothing was done. Open the payment page and use its buttons.
          </p>
          {hostHint ? <p data-testid="cross-site-host">{hostHint}</p> : null}
          <p>
            <a href={backTo} data-testid="cross-site-back">
              Open the payment page
            </a>
          </p>
        </div>
      </main>
    </Layout>,
  );
}
