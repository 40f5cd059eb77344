import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareNonces, parseNonce, signRequest, signatureMatches } from './hmac.js';

const vectors = JSON.parse(readFileSync(new URL('../../fixtures/hmac-vectors.json', import.meta.url), 'utf8')) as {
  vectors: Array<{ name: string; api_secret: string; nonce: string; url: string; body: string; signature: string }>;
};

describe('HMAC signer', () => {
  it.each(vectors.vectors.map((v) => [v.name, v] as const))('matches the published vector: %s', (_name, v) => {
    expect(signRequest(v.api_secret, v.nonce, v.url, v.body)).toBe(v.signature);
    expect(signRequest(v.api_secret, v.nonce, v.url, Buffer.from(v.body, 'utf8'))).toBe(v.signature);
  });

  it('treats wrong length, non-hex and empty signatures as mismatches, never as errors', () => {
    const good = signRequest('s', '1', 'http://x/', '');
    expect(signatureMatches(good, good)).toBe(true);
    // Lowercase hex is the documented form: the same bytes in uppercase are a mismatch.
    expect(signatureMatches(good, good.toUpperCase())).toBe(false);
    expect(signatureMatches(good, good.slice(1))).toBe(false);
    expect(signatureMatches(good, 'z'.repeat(64))).toBe(false);
    expect(signatureMatches(good, '')).toBe(false);
    expect(signatureMatches(good, good + '00')).toBe(false);
  });
});

describe('nonces', () => {
  it.each([
    ['1700000000000', '1700000000000'],
    ['0', '0'],
    ['000123', '123'],
    ['1.7e+25', '17' + '0'.repeat(24)],
    ['1.7E25', '17' + '0'.repeat(24)],
    ['1e3', '1000'],
    ['1.763837e+262', '1763837' + '0'.repeat(256)],
    ['9'.repeat(309), '9'.repeat(309)],
    ['1.5e1', '15'],
  ])('reads %s exactly', (text, digits) => {
    expect(parseNonce(text)).toBe(digits);
  });

  it.each(['', '-1', '1.5', '1.25e1', 'abc', '0x10', '1e309', '1' + '0'.repeat(309), '1e-3', ' 1', 'Infinity', 'NaN', '1e'])(
    'refuses %j',
    (text) => {
      expect(parseNonce(text)).toBeNull();
    },
  );

  it('compares exactly where floating point would not', () => {
    const a = parseNonce('1.763837e+262')!;
    const b = parseNonce('1.7638370000000001e+262')!;
    expect(Number(a) === Number(b)).toBe(true); // floats cannot tell them apart...
    expect(compareNonces(a, b)).toBe(-1); // ...exact comparison can
    expect(compareNonces(parseNonce('1.7e+25')!, parseNonce('17000000000000000000000001')!)).toBe(-1);
    expect(compareNonces('99', '100')).toBe(-1);
    expect(compareNonces('100', '100')).toBe(0);
  });
});
