import { describe, expect, it } from 'vitest';
import { signRequest } from '../auth/hmac.js';
import type { RunningServer } from '../server.js';
import { itemAt } from '../shared/defined.js';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import { errorCode } from '../testing/error-code.js';
import { listenPerTest, overSocket, type SocketAnswer } from '../testing/socket.test-support.js';

let t: TestApp;
appPerTest((app) => (t = app));

const count = () => (t.db.prepare('SELECT COUNT(*) AS n FROM invoices').get() as { n: number }).n;

describe('bodies', () => {
  describe('over a real socket', () => {
    let server: RunningServer;
    listenPerTest(
      () => t,
      (s) => (server = s),
    );

    function chunked(chunks: string[]): Promise<SocketAnswer> {
      return overSocket(
        `${server.url}/v1/invoices/`,
        {
          method: 'POST',
          headers: {
            authorization: `Token ${t.merchant.merchant_api_token}`,
            'content-type': 'application/json',
            'transfer-encoding': 'chunked',
          },
        },
        (req) => {
          for (const c of chunks) req.write(c);
          req.end();
        },
      );
    }

    it('refuses a chunked body over 64 KiB (no Content-Length) with 413', async () => {
      const pad = 'z'.repeat(8 * 1024);
      const chunks = [
        '{"amount":20,"currency":"PHP","external_transaction_id":"chunked","description":"',
        ...Array(10).fill(pad),
        '"}',
      ];
      const res = await chunked(chunks);
      expect(res.status).toBe(413);
      expect(errorCode(JSON.parse(res.body))).toBe('payload_too_large');
      expect(count()).toBe(0);
    });

    /** A signed GET over the socket: the message uses `signedUrl`, the request goes to the server. */
    function signedGet(
      path: string,
      signedUrl: string,
      headers: Record<string, string> = {},
    ): Promise<SocketAnswer> {
      const app = itemAt(t.fixtures.developers, 0).app;
      const nonce = String(Date.now() * 1000);
      return overSocket(`${server.url}${path}`, {
        headers: {
          ACCESS_KEY: app.api_key,
          ACCESS_NONCE: nonce,
          ACCESS_SIGNATURE: signRequest(app.api_secret, nonce, signedUrl, ''),
          ...headers,
        },
      });
    }

    it('checks a signature against the URL as sent on the wire: host, port, path and raw query', async () => {
      const path = '/v3/crypto-accounts/?per_page=5&page=1';
      expect((await signedGet(path, `${server.url}${path}`)).status).toBe(200);
      // The same request signed over another spelling of the URL does not match.
      for (const other of [
        `${server.url}/v3/crypto-accounts/`,
        `${server.url}/v3/crypto-accounts?per_page=5&page=1`,
        `https://${server.url.slice(7)}${path}`,
      ]) {
        const res = await signedGet(path, other);
        expect(res.status, other).toBe(401);
        expect(errorCode(JSON.parse(res.body))).toBe('invalid_signature');
      }
    });

    it('signs a GET that carries a body over that body, as public clients send one (`"order"`)', async () => {
      const app = itemAt(t.fixtures.developers, 0).app;
      let nonce = BigInt(Date.now()) * 1000n;
      const getWithBody = (
        path: string,
        body: string,
        signedBody: string,
        extra: Record<string, string> = {},
      ) => {
        const n = String(++nonce);
        return overSocket(
          `${server.url}${path}`,
          {
            method: 'GET',
            headers: {
              ACCESS_KEY: app.api_key,
              ACCESS_NONCE: n,
              ACCESS_SIGNATURE: signRequest(app.api_secret, n, `${server.url}${path}`, signedBody),
              'content-type': 'application/json',
              ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
              ...extra,
            },
          },
          (req) => req.end(body),
        );
      };
      const list = await getWithBody('/api/v2/sellorder/?limit=2', '"order"', '"order"');
      expect(list.status).toBe(200);
      expect(JSON.parse(list.body).orders).toHaveLength(2);
      // Signed without the body it carries: the bytes on the wire decide.
      const unsigned = await getWithBody('/api/v2/sellorder/', '"order"', '');
      expect(unsigned.status).toBe(401);
      expect(errorCode(JSON.parse(unsigned.body))).toBe('invalid_signature');
      // No body: signed over nothing, as before.
      expect((await getWithBody('/v3/crypto-accounts/', '', '')).status).toBe(200);
      const huge = await getWithBody(
        '/v3/crypto-accounts/',
        'x'.repeat(70_000),
        'x'.repeat(70_000),
      );
      expect(huge.status).toBe(413);
    });

    it('takes scheme and host from X-Forwarded-* over the socket only with trust-proxy', async () => {
      const path = '/v3/crypto-accounts/';
      const fwd = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'api.example.ph' };
      expect((await signedGet(path, `https://api.example.ph${path}`, fwd)).status).toBe(401);
      t.sandbox.config.trustProxy = true;
      expect((await signedGet(path, `https://api.example.ph${path}`, fwd)).status).toBe(200);
    });

    it('reads a body with a Content-Length straight from the socket, byte for byte', async () => {
      const post = (raw: string) =>
        overSocket(
          `${server.url}/v1/invoices/`,
          {
            method: 'POST',
            headers: {
              authorization: `Token ${t.merchant.merchant_api_token}`,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(raw),
            },
          },
          (req) => {
            // Sent in pieces, so the body spans several reads of the socket.
            const bytes = Buffer.from(raw);
            req.write(bytes.subarray(0, 7));
            setTimeout(() => req.end(bytes.subarray(7)), 20);
          },
        );
      const description = 'Kape at pandesal — ₱ 20 ✓';
      const created = await post(
        JSON.stringify({
          amount: 20,
          currency: 'PHP',
          external_transaction_id: 'socket-body',
          description,
        }),
      );
      expect(created.status).toBe(201);
      expect(JSON.parse(created.body).invoice.description).toBe(description);
      const bad = await post('{"amount": 20,');
      expect(bad.status).toBe(400);
      expect(errorCode(JSON.parse(bad.body))).toBe('malformed_json');
      expect(count()).toBe(1);
    });

    it('accepts a small chunked body', async () => {
      const res = await chunked([
        '{"amount":20,"currency":"PHP",',
        '"external_transaction_id":"small-chunked"}',
      ]);
      expect(res.status).toBe(201);
    });
  });
});
