import fc from 'fast-check';
import { enc, type WireRequest, type WireResponse } from './fuzz.request.js';
import type { FuzzWorld } from './fuzz.world.js';
import { existing } from './fuzz.bodies.js';
import { NASTY_STRINGS } from './schema.arbitrary.js';

/** A request to a route the document does not describe (pages, assets), and its name in the report. */
export interface ExtraCase {
  surface: string;
  wire: WireRequest;
}

const segment = fc
  .oneof(
    fc.constantFrom(...NASTY_STRINGS, 'swagger-ui.css', 'swagger-ui-bundle.js', 'x'.repeat(300)),
    fc.string({ minLength: 1, maxLength: 20 }),
  )
  .filter((v) => v !== '.' && v !== '..'); // clients resolve dot segments before sending

const FORMS = ['wallet/login', 'wallet/confirm', 'wallet/logout', 'counter', 'sandbox'];

/** Bodies a browser never sends but a client can: broken multipart, odd encodings, binary. */
const formBody = fc.oneof(
  fc.constant({
    type: 'multipart/form-data; boundary=xyz',
    body: '--xyz\r\nContent-Disposition: form-data; name="login"\r\n\r\nabc',
  }),
  fc.constant({ type: 'multipart/form-data', body: 'no boundary at all' }),
  fc.constant({ type: 'multipart/form-data; boundary=', body: '--\r\n\r\n--' }),
  fc.constant({
    type: 'multipart/form-data; boundary=a',
    body: '--a\r\nContent-Disposition: form-data\r\n\r\nx\r\n--a--',
  }),
  fc.constant({ type: 'application/x-www-form-urlencoded', body: 'login=%E0%A4%A&password=%' }),
  fc.constant({
    type: 'application/x-www-form-urlencoded',
    body: 'login=a&login=b&__proto__=x&constructor=y',
  }),
  fc.constant({ type: 'application/json', body: '{"login":' }),
  fc.string({ maxLength: 200 }).map((body) => ({ type: 'multipart/form-data; boundary=b', body })),
);

/**
 * Routes outside the document: the API reference's assets, the hosted payment page and its form
 * posts, and documented paths with a method they do not have. Only "no 5xx, no hang" is checked.
 */
export function extraCase(world: FuzzWorld): fc.Arbitrary<ExtraCase> {
  const base = world.baseUrl;
  const invoice = fc.oneof(existing(world, 'invoice'), segment);
  return fc.oneof(
    segment.map((s) => ({
      surface: 'GET /docs/assets/{file}',
      wire: { method: 'GET', url: `${base}/docs/assets/${enc(s)}`, headers: {} },
    })),
    fc.tuple(invoice, fc.option(segment)).map(([id, m]) => ({
      surface: 'GET /payment/invoice/{id}',
      wire: {
        method: 'GET',
        url: `${base}/payment/invoice/${enc(id)}${m ? `?method=${enc(m)}&outlet=${enc(m)}` : ''}`,
        headers: {},
      },
    })),
    fc
      .tuple(existing(world, 'invoice'), fc.constantFrom(...FORMS), formBody)
      .map(([id, form, b]) => ({
        surface: `POST /payment/invoice/{id}/${form}`,
        wire: {
          method: 'POST',
          url: `${base}/payment/invoice/${id}/${form}`,
          headers: { 'content-type': b.type },
          body: b.body,
        },
      })),
    fc
      .tuple(
        fc.constantFrom('PUT', 'DELETE', 'PATCH'),
        fc.constantFrom('/v1/invoices/', '/v3/transfers/', '/_sandbox/clock', '/healthz'),
      )
      .map(([method, path]) => ({
        surface: 'wrong method',
        wire: { method, url: base + path, headers: { 'x-sandbox-token': world.controlToken } },
      })),
  );
}

export function extraProblems(res: WireResponse): string[] {
  return res.status >= 500 ? [`server error ${res.status}: ${res.text.slice(0, 120)}`] : [];
}
