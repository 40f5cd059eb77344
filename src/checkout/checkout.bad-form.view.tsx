import { htmlDocument } from './html-document.js';
import { Layout } from './checkout.layout.js';

/**
 * A form post whose body could not be read (broken multipart, a body no form parser understands):
 * a 400 page with a way back, instead of a crash. Browsers never send such bodies from our forms;
 * hand-made clients and scanners do.
 */
export function renderBadFormPage(nonce: string, backTo: string): string {
  return htmlDocument(
    <Layout title="Request not understood" nonce={nonce} script={false}>
      <main id="main">
        <div class="card">
          <h1 data-testid="bad-form">Request not understood</h1>
          <p>
            The form you sent could not be read, so nothing was done. Go back to the payment page
            and try again.
          </p>
          <p>
            <a href={backTo} data-testid="bad-form-back">
              Back to the payment page
            </a>
          </p>
        </div>
      </main>
    </Layout>,
  );
}
