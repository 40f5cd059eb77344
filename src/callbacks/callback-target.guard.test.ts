import { describe, expect, it } from 'vitest';
import {
  callbackTargetProblem,
  isPrivateAddress,
  systemLookup,
  type Lookup,
} from './callback-target.guard.js';

const resolvesTo =
  (...addresses: string[]): Lookup =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc12::3',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    'ff02::1',
    'not-an-ip',
  ])('refuses %s', (a) => expect(isPrivateAddress(a)).toBe(true));

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
  ])('allows %s', (a) => expect(isPrivateAddress(a)).toBe(false));
});

describe('callbackTargetProblem', () => {
  const open = { blockPrivate: false, lookup: resolvesTo('127.0.0.1') };
  const strict = (lookup: Lookup) => ({ blockPrivate: true, lookup });

  it('allows only http and https, with no credentials in the URL', async () => {
    expect(await callbackTargetProblem('http://127.0.0.1:4040/callbacks', open)).toBeNull();
    expect(await callbackTargetProblem('https://shop.example/cb', open)).toBeNull();
    expect(await callbackTargetProblem('file:///etc/passwd', open)).toMatch(/only http and https/);
    expect(await callbackTargetProblem('gopher://x/', open)).toMatch(/only http and https/);
    expect(await callbackTargetProblem('not a url', open)).toMatch(/not a valid URL/);
    expect(await callbackTargetProblem('https://user:pw@shop.example/', open)).toMatch(
      /credentials/,
    );
  });

  it('with blocking on, checks every resolved address of a name', async () => {
    expect(
      await callbackTargetProblem('https://shop.example/cb', strict(resolvesTo('93.184.215.14'))),
    ).toBeNull();
    expect(
      await callbackTargetProblem(
        'https://shop.example/cb',
        strict(resolvesTo('93.184.215.14', '10.0.0.5')),
      ),
    ).toBe(
      'refused by --block-private-callbacks: shop.example resolves to 10.0.0.5 (loopback, private or link-local)',
    );
    expect(await callbackTargetProblem('http://[::1]:4040/', strict(resolvesTo()))).toMatch(
      /resolves to ::1/,
    );
    expect(await callbackTargetProblem('http://2130706433/', strict(resolvesTo()))).toMatch(
      /resolves to 127\.0\.0\.1/,
    );
    const failing: Lookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect(await callbackTargetProblem('https://nowhere.invalid/', strict(failing))).toBe(
      'DNS lookup of nowhere.invalid failed: ENOTFOUND',
    );
    expect(await callbackTargetProblem('https://empty.example/', strict(resolvesTo()))).toMatch(
      /no address/,
    );
  });

  it('resolves names with the system resolver (localhost is loopback)', async () => {
    expect(
      await callbackTargetProblem('http://localhost:4040/callbacks', strict(systemLookup)),
    ).toMatch(/^refused by --block-private-callbacks: localhost resolves to/);
  });
});
