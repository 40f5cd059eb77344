import type { Child } from 'hono/jsx';
import { SCRIPT, STYLE } from './checkout.assets.js';

export interface LayoutProps {
  title: string;
  nonce: string;
  /** `data-*` attributes on <body> that the inline script reads. */
  data?: Record<string, string>;
  /** Include the focus, countdown, polling and copy script (not needed on pages that never change). */
  script?: boolean;
  children?: Child;
}

/**
 * The document shell: one inline style, one inline script, both under the response's CSP nonce. Nothing
 * here navigates on a timer: the page moves on only when the invoice does (see the script).
 */
export function Layout(p: LayoutProps) {
  const data = Object.fromEntries(Object.entries(p.data ?? {}).map(([k, v]) => [`data-${k}`, v]));
  const script = p.script !== false;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        {/* An empty icon: the browser asks the server for no /favicon.ico. */}
        <link rel="icon" href="data:," />
        <title>{p.title}</title>
        <style nonce={p.nonce} dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body {...data}>
        <p class="banner" data-testid="sandbox-banner">
          Sandbox mode: test payments only, no real money moves.
        </p>
        {p.children}
        {/* Outside the parts the poll swaps, so what it says is heard: payment updates, 5 and 1 minute left. */}
        {script ? (
          <p
            id="announce"
            class="sr-only"
            role="status"
            aria-live="polite"
            data-testid="announce"
          ></p>
        ) : null}
        <footer>paysandbox hosted payment page</footer>
        {script ? <script nonce={p.nonce} dangerouslySetInnerHTML={{ __html: SCRIPT }} /> : null}
      </body>
    </html>
  );
}

/** `GET /payment/invoice/{unknown}`: an HTML 404, not the API's JSON envelope. */
export function NotFoundPage(p: { nonce: string }) {
  return (
    <Layout title="Invoice not found — paysandbox" nonce={p.nonce} script={false}>
      <main id="main">
        <div class="card">
          <h1 data-testid="not-found">Invoice not found</h1>
          <p>
            There is no invoice at this address. Check the payment link you were given, or ask the
            merchant for a new one.
          </p>
        </div>
      </main>
    </Layout>
  );
}
