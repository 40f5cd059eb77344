import { describe, expect, it } from 'vitest';
import { configFrom, parseDuration } from './config-flags.js';
import { isLoopback } from './config.js';

describe('configuration', () => {
  it('uses defaults, then env, then flags', () => {
    const d = configFrom({}, {});
    expect(d).toMatchObject({
      port: 7070,
      host: '127.0.0.1',
      db: '.paysandbox/sandbox.db',
      durability: 'normal',
      debugErrors: true,
      publicUrl: 'http://127.0.0.1:7070',
    });
    const env = configFrom(
      {},
      {
        PAYSANDBOX_PORT: '8080',
        PAYSANDBOX_DB: ':memory:',
        SANDBOX_CONTROL_TOKEN: 'secret',
        PAYSANDBOX_NO_DEBUG_ERRORS: '1',
      },
    );
    expect(env).toMatchObject({
      port: 8080,
      db: ':memory:',
      controlToken: 'secret',
      debugErrors: false,
      publicUrl: 'http://127.0.0.1:8080',
    });
    const flags = configFrom(
      { port: '9090', 'public-url': 'https://sandbox.example.ph/', durability: 'full' },
      { PAYSANDBOX_PORT: '8080' },
    );
    expect(flags).toMatchObject({
      port: 9090,
      publicUrl: 'https://sandbox.example.ph',
      durability: 'full',
    });
  });

  it('reads retry schedules and durations', () => {
    expect(configFrom({ 'retry-schedule': '1s,2s,4s' }, {}).retrySchedule).toEqual([1, 2, 4]);
    expect(configFrom({}, { PAYSANDBOX_RETRY_SCHEDULE: '10s,1m,2h' }).retrySchedule).toEqual([
      10, 60, 7200,
    ]);
    expect(parseDuration('500ms')).toBe(0.5);
    expect(() => parseDuration('soon')).toThrow(/not a duration/);
  });

  it('reads the buy order release delay from --buyorder-delay or PAYSANDBOX_BUYORDER_DELAY (60 s by default)', () => {
    expect(configFrom({}, {}).buyOrderReleaseSeconds).toBe(60);
    expect(configFrom({ 'buyorder-delay': '5s' }, {}).buyOrderReleaseSeconds).toBe(5);
    expect(configFrom({}, { PAYSANDBOX_BUYORDER_DELAY: '0' }).buyOrderReleaseSeconds).toBe(0);
  });

  it('refuses bad values with a clear message', () => {
    expect(() => configFrom({ port: 'x' }, {})).toThrow(/--port/);
    expect(() => configFrom({ durability: 'maybe' }, {})).toThrow(/--durability/);
  });
});

describe('isLoopback (the listen host needs no control token only when it is loopback)', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    '127.0.0.1',
    '127.8.9.10',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
  ])('%s is loopback', (h) => expect(isLoopback(h)).toBe(true));

  it.each([
    '127.x.evil',
    '127.0.0.1.evil.example',
    '127.evil',
    '127.1',
    '0x7f.0.0.1',
    'localhost.evil',
    '0.0.0.0',
    '::',
    '10.0.0.1',
    'example.com',
    '',
  ])('%s is not loopback', (h) => expect(isLoopback(h)).toBe(false));
});

describe('--allowed-hosts', () => {
  it('reads a comma-separated list from the flag or PAYSANDBOX_ALLOWED_HOSTS, as URL host names', () => {
    expect(configFrom({}, {}).allowedHosts).toEqual([]);
    expect(configFrom({ 'allowed-hosts': 'Sandbox, ci.internal ,[::1]' }, {}).allowedHosts).toEqual(
      ['sandbox', 'ci.internal', '[::1]'],
    );
    expect(configFrom({}, { PAYSANDBOX_ALLOWED_HOSTS: '*' }).allowedHosts).toEqual(['*']);
    expect(() => configFrom({ 'allowed-hosts': 'a b' }, {})).toThrow(/--allowed-hosts/);
  });
});
