import { afterEach, describe, expect, it } from 'vitest';
import { startMerchantReceiver } from '../../examples/merchant-callback/server.js';
import { runCheckReceiver } from '../cli/check-receiver.js';
import { commands } from '../cli/commands.js';
import { runCli } from '../testing/spawn-server.js';
import type { ReceiverReport } from './receiver-check.service.js';
import {
  acceptsAnyToken,
  answersAfter,
  refusesDuplicates,
  startTestReceiver,
  type TestHandler,
} from './receiver-check.test-support.js';

const TOKEN = '5b2e9c0d7a184f6e8d3c2b1a09f8e7d6';
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function exampleUrl(): Promise<string> {
  const r = await startMerchantReceiver({ token: TOKEN, port: 0, requireToken: true });
  closers.push(() => r.close());
  return r.url;
}

async function handlerUrl(handle: TestHandler): Promise<string> {
  const r = await startTestReceiver(handle);
  closers.push(() => r.close());
  return r.url;
}

/** Run the command in-process, as main.ts would, capturing what it prints. */
async function run(args: string[], env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCheckReceiver(args, env, {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('paysandbox check-receiver', () => {
  it('is registered as a command', () => {
    expect(commands.map((c) => c.name)).toContain('check-receiver');
  });

  it('prints a line per check and exits 0 for the example receiver', async () => {
    const { code, out, err } = await run(['--url', await exampleUrl(), '--token', TOKEN]);
    expect(err).toMatch(
      /^check-receiver: sending synthetic test callbacks to http:\/\/127\.0\.0\.1:\d+\/callbacks \(timeout 10000 ms each\)…$/,
    );
    expect(out).toMatch(/^Checking the callback handler at http:\/\/127\.0\.0\.1:\d+\/callbacks$/m);
    expect(out).toMatch(
      /^These are synthetic test events: invoices check-receiver-[0-9a-f]{12}-\* match no real invoice/m,
    );
    expect(out).toMatch(/^Run [0-9a-f]{32}: 7 requests, timeout 10000 ms each\.$/m);
    expect(out).toMatch(/^PASS {2}valid event {11}answered 200 in \d+ ms$/m);
    for (const title of [
      'duplicate delivery',
      'out-of-order events',
      'missing token',
      'wrong token',
      'slow acknowledgement',
    ]) {
      expect(out).toMatch(new RegExp(`^PASS  ${title} `, 'm'));
    }
    expect(out).toMatch(/^INFO {2}content type {10}200 with Content-Type text\/plain, body "OK"$/m);
    expect(out).not.toMatch(/a correct handler/);
    expect(out).toMatch(/^Summary: 6 PASS, 0 WARN, 0 FAIL, 1 INFO: no check failed\.$/m);
    expect(code).toBe(0);
  });

  it('exits 1 and says what a correct handler does when the handler accepts any token', async () => {
    const { code, out } = await run(['--url', await handlerUrl(acceptsAnyToken())], {
      MERCHANT_API_TOKEN: TOKEN,
    });
    expect(out).toMatch(
      /^WARN {2}missing token {9}answered 200 to a callback without Authorization: expected on an http URL/m,
    );
    expect(out).toMatch(
      /^FAIL {2}wrong token {11}answered 200 to a callback with a wrong token: this handler accepts unauthenticated callbacks$/m,
    );
    expect(out).toMatch(
      /^Summary: 4 PASS, 1 WARN, 1 FAIL, 1 INFO: fix the FAIL checks before going live\.$/m,
    );
    expect(code).toBe(1);
  });

  it('exits 1 on a handler that refuses duplicates, and reports JSON with --json', async () => {
    const { code, out, err } = await run([
      '--url',
      await handlerUrl(refusesDuplicates(TOKEN)),
      '--token',
      TOKEN,
      '--json',
    ]);
    expect(err).toBe('');
    const report = JSON.parse(out) as ReceiverReport;
    expect(report.synthetic).toBe(true);
    expect(report.checks.find((c) => c.id === 'duplicate-delivery')).toMatchObject({
      grade: 'FAIL',
      expected: expect.stringMatching(/idempotent/),
    });
    expect(report.checks.filter((c) => c.grade === 'FAIL').map((c) => c.id)).toEqual([
      'duplicate-delivery',
    ]);
    expect(report.passed).toBe(false);
    expect(code).toBe(1);
  });

  it('exits 1 on a handler slower than --timeout', async () => {
    const { code, out } = await run([
      '--url',
      await handlerUrl(answersAfter(TOKEN, 1_500)),
      '--token',
      TOKEN,
      '--timeout',
      '500ms',
    ]);
    expect(out).toMatch(/^FAIL {2}valid event {11}timeout: no answer within 500 ms/m);
    expect(out).toMatch(
      /^FAIL {2}slow acknowledgement {2}no answer within 500 ms: the sandbox and the real service count that as a failed delivery and retry it$/m,
    );
    expect(code).toBe(1);
  });

  it('exits 2 with a clear message on bad usage, before sending anything', async () => {
    const cases: Array<[string[], RegExp]> = [
      [
        ['--token', TOKEN],
        /^paysandbox check-receiver: --url is required: the merchant's callback URL/,
      ],
      [
        ['--url', 'http://127.0.0.1:9/callbacks'],
        /^paysandbox check-receiver: --token is required: the merchant_api_token the handler expects/,
      ],
      [
        ['--url', 'ftp://127.0.0.1/callbacks', '--token', TOKEN],
        /^paysandbox check-receiver: --url must be an http or https URL \(callbacks are HTTP POSTs\), got "ftp:"/,
      ],
      [
        ['--url', 'not a url', '--token', TOKEN],
        /^paysandbox check-receiver: --url is not a URL: "not a url"/,
      ],
      [
        ['--url', 'http://127.0.0.1:9/', '--token', TOKEN, '--timeout', 'soon'],
        /^paysandbox check-receiver: --timeout: not a duration: "soon"/,
      ],
      [
        ['--url', 'http://127.0.0.1:9/', '--token', TOKEN, '--timeout', '0s'],
        /^paysandbox check-receiver: --timeout must be more than 0/,
      ],
      [['--url', 'http://127.0.0.1:9/', '--token', TOKEN, '--verbose'], /unknown flag --verbose/],
    ];
    for (const [args, message] of cases) {
      const { code, out, err } = await run(args);
      expect(err).toMatch(message);
      // One line: the problem, then the usage.
      expect(err).toMatch(
        /^[^\n]* \(usage: paysandbox check-receiver --url URL --token T \[--timeout 10s\] \[--json\]\)$/,
      );
      expect(out).toBe('');
      expect(code).toBe(2);
    }
  });

  it('gives its exit code to the process through `paysandbox check-receiver`', async () => {
    const url = await exampleUrl();
    const result = await runCli(
      ['check-receiver', '--url', url, '--token', TOKEN, '--timeout', '5s'],
      { env: { MERCHANT_API_TOKEN: '' } },
    );
    expect(result.out).toMatch(/^Summary: 6 PASS, 0 WARN, 0 FAIL, 1 INFO/m);
    expect(result.code).toBe(0);
  });
});
