import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpTransport } from './callback.transport.js';
import { checkCallbackTarget, isPrivateAddress, type Lookup } from './callback-target.guard.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('private-callback guard: IPv4 carried inside IPv6', () => {
  it.each([
    ['::a9fe:a9fe', 'IPv4-compatible 169.254.169.254 (cloud metadata)'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::10.0.0.1', 'IPv4-compatible private'],
    ['2002:7f00:1::', '6to4 of 127.0.0.1'],
    ['2002:a9fe:a9fe::1', '6to4 of 169.254.169.254'],
    ['2002:c0a8:101::', '6to4 of 192.168.1.1'],
    ['::ffff:0:7f00:1', 'IPv4-translated loopback'],
    ['64:ff9b:1::a00:1', 'local-use NAT64 of 10.0.0.1'],
    ['2001::1', 'Teredo'],
    ['2001:db8::1', 'documentation'],
    ['fe80::1%eth0', 'link-local with a zone'],
  ])('refuses %s (%s)', (address) => expect(isPrivateAddress(address)).toBe(true));

  it.each(['2002:808:808::1', '::ffff:1.1.1.1', '64:ff9b::808:808', '2606:4700:4700::1111'])(
    'allows public %s',
    (address) => expect(isPrivateAddress(address)).toBe(false),
  );
});

describe('private-callback guard: resolve once, connect to what was checked', () => {
  /** A resolver whose answer changes after the first question: DNS rebinding. */
  function rebinding(first: string, then: string): Lookup & { calls: number } {
    const fn = Object.assign(
      async () => {
        fn.calls += 1;
        const address = fn.calls === 1 ? first : then;
        return [{ address, family: address.includes(':') ? 6 : 4 }];
      },
      { calls: 0 },
    );
    return fn;
  }

  it('asks DNS once and returns the checked address to pin the connection to', async () => {
    const lookup = rebinding('93.184.215.14', '127.0.0.1');
    const check = await checkCallbackTarget('https://shop.example/cb', {
      blockPrivate: true,
      lookup,
    });
    expect(check).toEqual({ problem: null, pinned: { address: '93.184.215.14', family: 4 } });
    expect(lookup.calls).toBe(1);
    // The next attempt asks again and is refused: the rebound answer is checked, never used unchecked.
    const again = await checkCallbackTarget('https://shop.example/cb', {
      blockPrivate: true,
      lookup,
    });
    expect(again.problem).toMatch(
      /^refused by --block-private-callbacks: shop\.example resolves to 127\.0\.0\.1/,
    );
  });

  it('refuses a name that resolves to an IPv4 address hidden in IPv6', async () => {
    for (const address of ['::a9fe:a9fe', '::127.0.0.1', '2002:7f00:1::']) {
      const check = await checkCallbackTarget('http://hidden.example/', {
        blockPrivate: true,
        lookup: rebinding(address, address),
      });
      expect(check.problem, address).toContain(`resolves to ${address}`);
    }
    for (const literal of [
      'http://[::a9fe:a9fe]/',
      'http://[::127.0.0.1]/',
      'http://[2002:7f00:1::]/',
    ]) {
      const check = await checkCallbackTarget(literal, {
        blockPrivate: true,
        lookup: rebinding('8.8.8.8', '8.8.8.8'),
      });
      expect(check.problem, literal).toMatch(/^refused by --block-private-callbacks/);
    }
  });

  it('the node:http transport connects to the pinned address, whatever DNS would say about the name', async () => {
    let host: string | undefined;
    const server: Server = createServer((req, res) => {
      host = req.headers.host;
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(
      () =>
        new Promise<void>((r) => {
          server.close(() => r());
          server.closeAllConnections();
        }),
    );
    const port = (server.address() as AddressInfo).port;
    const transport = createHttpTransport({ nowMs: () => performance.now() });
    cleanups.push(() => transport.close());
    // `.invalid` never resolves: only the pinned address can get this request through.
    const url = `http://pinned-target.invalid:${port}/cb`;
    const req = { url, headers: { 'Content-Type': 'application/json' }, body: '{}' };
    const unpinned = await transport.send(req, 5_000);
    expect(unpinned.delivered).toBe(false);
    const pinned = await transport.send(req, 5_000, { address: '127.0.0.1', family: 4 });
    expect(pinned).toMatchObject({ delivered: true, statusCode: 200, excerpt: 'ok' });
    expect(host).toBe(`pinned-target.invalid:${port}`);
  });
});
