import type { Child } from 'hono/jsx';
import { SCRIPT, STYLE } from './checkout.assets.js';

export interface LayoutProps {
  title: string;
  nonce: string;
  /** Navigate here after a short pause (meta refresh: works without script). */
  refreshTo?: string | null;
  /** `data-*` attributes on <body> that the inline script reads. */
  data?: Record<string, string>;
  /** Include the countdown/polling script (not needed on pages that never change). */
  script?: boolean;
  children?: Child;
}

/** Seconds the paid/expired page stays up before it sends the browser back to the merchant. */
export const REDIRECT_DELAY_SECONDS = 3;

/** The document shell: one inline style, one inline script, both under the response's CSP nonce. */
export function Layout(p: LayoutProps) {
  const data = Object.fromEntries(Object.entries(p.data ?? {}).map(([k, v]) => [`data-${k}`, v]));
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        {/* An empty icon: the browser asks the server for no /favicon.ico. */}
        <link rel="icon" href="data:," />
        <title>{p.title}</title>
        {p.refreshTo ? <meta http-equiv="refresh" content={`${REDIRECT_DELAY_SECONDS};url=${p.refreshTo}`} /> : null}
        <style nonce={p.nonce} dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body {...data}>
        <p class="banner" data-testid="sandbox-banner">
          Sandbox mode: test payments only, no real money moves.
        </p>
        {p.children}
        <footer>paysandbox hosted payment page</footer>
        {p.script === false ? null : <script nonce={p.nonce} dangerouslySetInnerHTML={{ __html: SCRIPT }} />}
      </body>
    </html>
  );
}

/** `GET /payment/invoice/{unknown}`: an HTML 404, not the API's JSON envelope. */
export function NotFoundPage(p: { nonce: string }) {
  return (
    <Layout title="Invoice not found" nonce={p.nonce} script={false}>
      <main id="main">
        <div class="card">
          <h1 data-testid="not-found">Invoice not found</h1>
          <p>There is no invoice at this address. Check the payment link you were given, or ask the merchant for a new one.</p>
        </div>
      </main>
    </Layout>
  );
}
