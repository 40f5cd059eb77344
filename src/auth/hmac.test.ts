import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareNonces, parseNonce, sha256Hex, signRequest, signatureMatches } from './hmac.js';

const vectors = JSON.parse(
  readFileSync(new URL('../../fixtures/hmac-vectors.json', import.meta.url), 'utf8'),
) as {
  vectors: Array<{
    name: string;
    api_secret: string;
    nonce: string;
    url: string;
    body: string;
    signature: string;
  }>;
};

describe('HMAC signer', () => {
  it.each(vectors.vectors.map((v) => [v.name, v] as const))(
    'matches the published vector: %s',
    (_name, v) => {
      expect(signRequest(v.api_secret, v.nonce, v.url, v.body)).toBe(v.signature);
      expect(signRequest(v.api_secret, v.nonce, v.url, Buffer.from(v.body, 'utf8'))).toBe(
        v.signature,
      );
    },
  );

  it('signs an empty body when none is given', () => {
    expect(signRequest('s', '1', 'http://x/')).toBe(signRequest('s', '1', 'http://x/', ''));
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
    // non-hex at either end of a signature of the right length (Buffer.from would silently stop there)
    expect(signatureMatches(good, 'z' + good.slice(1))).toBe(false);
    expect(signatureMatches(good, good.slice(0, -1) + 'z')).toBe(false);
    expect(signatureMatches(good, good.slice(0, 30) + ' ' + good.slice(31))).toBe(false);
  });

  it('compares every byte: a signature off by one hex digit anywhere is a mismatch', () => {
    const good = signRequest('s', '1', 'http://x/', '');
    for (let i = 0; i < good.length; i++) {
      const other = good[i] === '0' ? '1' : '0';
      expect(
        signatureMatches(good, good.slice(0, i) + other + good.slice(i + 1)),
        `digit ${i}`,
      ).toBe(false);
    }
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
    ['1.50e1', '15'],
    ['1.250e2', '125'],
    ['1.500e1', '15'],
    ['000', '0'],
    ['0e5', '0'],
    ['00012e2', '1200'],
  ])('reads %s exactly', (text, digits) => {
    expect(parseNonce(text)).toBe(digits);
  });

  it.each([
    '',
    '-1',
    '1.5',
    '1.25e1',
    'abc',
    '0x10',
    '1e309',
    '1' + '0'.repeat(309),
    '1e-3',
    ' 1',
    'Infinity',
    'NaN',
    '1e',
  ])('refuses %j', (text) => {
    expect(parseNonce(text)).toBeNull();
  });

  it('compares exactly where floating point would not', () => {
    const a = parseNonce('1.763837e+262')!;
    const b = parseNonce('1.7638370000000001e+262')!;
    expect(Number(a) === Number(b)).toBe(true); // floats cannot tell them apart...
    expect(compareNonces(a, b)).toBe(-1); // ...exact comparison can
    expect(compareNonces(parseNonce('1.7e+25')!, parseNonce('17000000000000000000000001')!)).toBe(
      -1,
    );
    expect(compareNonces('99', '100')).toBe(-1);
    expect(compareNonces('100', '100')).toBe(0);
    expect(compareNonces('100', '99')).toBe(1);
    expect(compareNonces('2', '1')).toBe(1);
    expect(compareNonces('1', '2')).toBe(-1);
  });
});

describe('nonces with a long run of zeros (docs/design.md#input-handling)', () => {
  // /0+$/ on the fraction was quadratic on these: 15,000 zeros took a second, 256 KiB several minutes.
  it('reads the exponent form exactly whatever the zeros: a fraction is refused, trailing zeros are not one', () => {
    expect(parseNonce(`1.${'0'.repeat(256 * 1024)}1e+9999`)).toBeNull();
    expect(parseNonce(`1.${'0'.repeat(20)}1e+5`)).toBeNull();
    expect(parseNonce(`1.${'0'.repeat(1024 * 1024)}e+5`)).toBe('100000');
    expect(parseNonce(`${'0'.repeat(1024 * 1024)}17`)).toBe('17');
  });
});

describe('sha256Hex', () => {
  it('is the lowercase hex SHA-256 of the exact bytes', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(sha256Hex(Buffer.from('abc'))).toBe(sha256Hex('abc'));
  });
});
