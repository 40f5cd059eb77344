/** The kit's own safety rails: production refusal, credentials, skip reasons, references, the CLI. */
import { describe, expect, it } from 'vitest';
import { contractCommand } from '../../src/cli/contract.js';
import { createHmacSigner } from '../../src/client/index.js';
import { allCases } from '../cases/index.js';
import { isStagingHost } from '../../src/cli/production-guard.js';
import { skipReason } from '../harness/case.runner.js';
import { assertNotProduction, pacedFetch, referenceMaker } from '../harness/target.safety.js';
import type { Target, TargetInfo } from '../harness/target.types.js';
import { urlTargetConfigFromEnv } from '../harness/url.target.js';

const creds = { CONTRACT_API_KEY: 'k', CONTRACT_API_SECRET: 's', CONTRACT_MERCHANT_TOKEN: 't' };

function fakeTarget(info: Partial<TargetInfo>, extra: Partial<Target['creds']> = {}): Target {
  return {
    info: {
      kind: 'url',
      baseUrl: 'https://api.example.stage',
      hasControl: false,
      allowMoney: false,
      allowWrite: true,
      runId: 'r',
      credentialSource: 'env',
      loopback: false,
      ...info,
    },
    creds: { merchantToken: 't', apiKey: 'k', apiSecret: 's', ...extra },
    fetch: globalThis.fetch,
    signer: createHmacSigner({ apiKey: 'k', apiSecret: 's' }),
    close: async () => undefined,
  };
}

describe('production guard', () => {
  it.each([
    'http://localhost:7070',
    'http://127.0.0.1:9',
    'http://[::1]:7070',
    'https://api.coins.asia.stage.coins.systems',
    'https://staging.pay.example',
    'https://sandbox.pay.example',
    'https://test-api.example',
  ])('accepts %s', (url) => expect(() => assertNotProduction(url, {})).not.toThrow());

  // A staging host by whole words: a label, or a part of one between "-" or "_".
  it.each([
    ['api.example.stage', true],
    ['x.stage.example', true],
    ['api-staging.example.com', true],
    ['stage2.example.com', true],
    ['api.test01.example', true],
    ['pay_test.example', true],
    ['sandbox', true],
    ['paysandbox', true],
    ['API.STAGING.EXAMPLE', true],
    ['api.latest.invalid', false],
    ['contest.invalid', false],
    ['api.teststore.invalid', false],
    ['attest.example.com', false],
    ['backstage.example.com', false],
    ['stagecoach.example.com', false],
    ['testament.example', false],
    ['sandboxed.example', false],
    ['api.example.com', false],
    ['10.0.0.5', false],
  ] as const)('%s is a staging host: %s', (host, staging) => {
    expect(isStagingHost(host)).toBe(staging);
    const guard = () => assertNotProduction(`https://${host}`, {});
    if (staging) expect(guard).not.toThrow();
    else expect(guard).toThrow(/looks like production/);
  });

  it('refuses anything else unless CONTRACT_I_KNOW_THIS_IS_PRODUCTION=1', () => {
    expect(() => assertNotProduction('https://api.coins.asia', {})).toThrow(
      /Refusing to run the contract suite against https:\/\/api\.coins\.asia: it looks like production/,
    );
    expect(() =>
      assertNotProduction('https://api.coins.asia', { CONTRACT_I_KNOW_THIS_IS_PRODUCTION: 'yes' }),
    ).toThrow(/looks like production/);
    expect(() =>
      assertNotProduction('https://api.coins.asia', { CONTRACT_I_KNOW_THIS_IS_PRODUCTION: '1' }),
    ).not.toThrow();
    expect(() => assertNotProduction('ftp://staging.example', {})).toThrow(/http\(s\)/);
  });

  it('guards the url target configuration, and says which credentials are missing', () => {
    expect(() =>
      urlTargetConfigFromEnv({ CONTRACT_BASE_URL: 'https://api.coins.asia', ...creds }),
    ).toThrow(/looks like production/);
    expect(() => urlTargetConfigFromEnv({ CONTRACT_BASE_URL: 'https://x.stage.example' })).toThrow(
      /needs CONTRACT_API_KEY, CONTRACT_API_SECRET, CONTRACT_MERCHANT_TOKEN/,
    );
    const config = urlTargetConfigFromEnv({
      CONTRACT_BASE_URL: 'https://x.stage.example/',
      ...creds,
      CONTRACT_NONCE_START: '1.8e+262',
    });
    expect(config).toMatchObject({
      baseUrl: 'https://x.stage.example',
      allowMoney: false,
      allowWrite: true,
      minIntervalMs: 200,
      creds: { nonceStart: '1.8e+262' },
    });
    expect(
      urlTargetConfigFromEnv({
        CONTRACT_BASE_URL: 'http://127.0.0.1:1',
        ...creds,
        CONTRACT_ALLOW_MONEY: '1',
        CONTRACT_READ_ONLY: '1',
        CONTRACT_MIN_INTERVAL_MS: '0',
      }),
    ).toMatchObject({ allowMoney: true, allowWrite: false, minIntervalMs: 0 });
  });

  it('the CLI refuses production and missing credentials before it starts anything', async () => {
    expect(await contractCommand.run(['--base-url', 'https://api.coins.asia'], creds)).toBe(2);
    expect(await contractCommand.run(['--base-url', 'https://x.stage.example'], {})).toBe(2);
    expect(await contractCommand.run(['--help'], {})).toBe(0);
  });
});

describe('tags decide what runs where, and say why', () => {
  it('skips sandbox, money and write cases on a target that cannot take them, with a reason', () => {
    const t = fakeTarget({ allowWrite: false });
    const reasons = new Set(allCases.map((c) => skipReason(c, t)).filter(Boolean));
    expect(reasons).toContain(
      'needs the control API: GET https://api.example.stage/_sandbox/clock answered 404',
    );
    expect(reasons).toContain('moves money: set CONTRACT_ALLOW_MONEY=1 to run it');
    expect(reasons).toContain('creates data and CONTRACT_READ_ONLY=1 is set');
    for (const c of allCases.filter((x) => x.tags.includes('read') && x.tags.length === 1))
      expect(skipReason(c, t), c.name).toBeUndefined();
  });

  it('runs every case on a sandbox-like target', () => {
    const t = fakeTarget(
      { kind: 'sandbox', hasControl: true, allowMoney: true, loopback: true, workspaceId: 'w' },
      { merchantToken2: 'u', transferTarget: 'x', merchantId: 'm' },
    );
    const skipped = allCases
      .filter((c) => skipReason(c, t))
      .map((c) => `${c.name}: ${skipReason(c, t)}`);
    expect(skipped.join('\n')).toBe('');
  });

  it('every case carries at least one known tag', () => {
    for (const c of allCases) expect(c.tags.length, c.name).toBeGreaterThan(0);
  });
});

describe('requests of a run', () => {
  it('references are unique per run and name the run', () => {
    const ref = referenceMaker('run42');
    const refs = Array.from({ length: 50 }, () => ref('walk'));
    expect(new Set(refs).size).toBe(50);
    expect(refs[0]).toBe('ct-run42-walk-1');
    expect(ref('x'.repeat(300)).length).toBeLessThan(80);
  });

  it('pacing passes every request through, in order', async () => {
    const seen: string[] = [];
    const inner = (async (input: RequestInfo | URL) => {
      seen.push(String(input));
      return new Response('{}');
    }) as typeof fetch;
    expect(pacedFetch(inner, 0)).toBe(inner);
    const paced = pacedFetch(inner, 5);
    await Promise.all(['a', 'b', 'c'].map((p) => paced(`http://127.0.0.1/${p}`)));
    expect(seen).toEqual(['http://127.0.0.1/a', 'http://127.0.0.1/b', 'http://127.0.0.1/c']);
  });
});
