import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signRequest } from '../auth/hmac.js';
import { createHmacSigner } from '../client/hmac.signer.js';
import type { HarLog } from './har.js';
import { startRecorder } from './record.proxy.js';

const dir = mkdtempSync(join(tmpdir(), 'paysandbox-proxy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the recording proxy (in process, upstream faked)', () => {
  it('re-signs HMAC requests for the upstream URL with --resign, and writes the exchange (file rewritten each time)', async () => {
    const seen: Array<{ url: string; headers: Headers; body: string }> = [];
    const fakeFetch = (async (input: string | URL | Request, init?: RequestInit) => {
      seen.push({
        url: String(input),
        headers: new Headers(init?.headers),
        body: init?.body ? new TextDecoder().decode(init.body as Uint8Array) : '',
      });
      return new Response(JSON.stringify({ transfer: { id: 't1', amount: '25' } }), {
        status: 201,
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch;
    const out = join(dir, 'resign.har');
    const signer = createHmacSigner({ apiKey: 'staging-key', apiSecret: 'staging-secret' });
    const rec = await startRecorder({
      upstream: 'https://api.example.stage/',
      out,
      port: 0,
      maskPii: false,
      signer,
      fetch: fakeFetch,
      version: 't',
      now: () => 1_700_000_000_000,
    });
    try {
      const body = JSON.stringify({ account: 'a', amount: 25, target_address: 'x@example.com' });
      const res = await fetch(`${rec.url}/v3/transfers?x=1`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ACCESS_KEY: 'local-key',
          ACCESS_SIGNATURE: 'local-sig',
          ACCESS_NONCE: '5',
        },
        body,
      });
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ transfer: { id: 't1', amount: '25' } });
      const up = seen[0]!;
      expect(up.url).toBe('https://api.example.stage/v3/transfers?x=1');
      expect(up.body).toBe(body);
      const nonce = up.headers.get('access-nonce')!;
      expect(up.headers.get('access-key')).toBe('staging-key');
      expect(up.headers.get('access_key')).toBeNull();
      expect(up.headers.get('access-signature')).toBe(
        signRequest('staging-secret', nonce, up.url, body),
      );
      expect(up.headers.get('x-forwarded-host')).toBe(new URL(rec.url).host);
      const har = JSON.parse(readFileSync(out, 'utf8')) as HarLog;
      expect(har.log.entries).toHaveLength(1);
      const e = har.log.entries[0]!;
      expect(e.startedDateTime).toBe('2023-11-14T22:13:20.000Z');
      expect(e.request.url).toBe('https://api.example.stage/v3/transfers?x=1');
      expect(e.request.headers.find((h) => h.name === 'access_signature')?.value).toBe(
        '<redacted>',
      );
      expect(e.response.content.text).toBe(
        JSON.stringify({ transfer: { id: 't1', amount: '25' } }),
      );
    } finally {
      await rec.close();
    }
  });

  it('answers 502 with the error envelope when the upstream does not answer', async () => {
    const failing = (() => Promise.reject(new Error('connect ECONNREFUSED'))) as typeof fetch;
    const rec = await startRecorder({
      upstream: 'http://127.0.0.1:9',
      out: join(dir, 'down.har'),
      port: 0,
      maskPii: false,
      fetch: failing,
      version: 't',
    });
    try {
      const res = await fetch(`${rec.url}/v3/crypto-accounts/`);
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({
        errors: {
          non_field_errors: [
            'paysandbox record: the upstream did not answer: connect ECONNREFUSED',
          ],
        },
      });
      expect(
        (JSON.parse(readFileSync(join(dir, 'down.har'), 'utf8')) as HarLog).log.entries,
      ).toEqual([]);
    } finally {
      await rec.close();
    }
  });
});
