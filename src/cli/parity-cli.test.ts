import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { junitReport } from '../parity/report.js';
import { packageRoot } from '../spec/load.js';
import { UsageError } from './args.js';
import { runParityCli } from './parity.js';

const dir = mkdtempSync(join(tmpdir(), 'paysandbox-parity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function harWith(body: unknown): string {
  const entry = {
    startedDateTime: '2026-01-01T00:00:00.000Z',
    time: 0,
    request: {
      method: 'GET',
      url: 'https://staging.example/v3/crypto-accounts/',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'ACCESS_KEY', value: '<redacted>' }],
      queryString: [],
      headersSize: -1,
      bodySize: -1,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [],
      content: { size: -1, mimeType: 'application/json', text: JSON.stringify(body) },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 0, receive: 0 },
  };
  const file = join(dir, `s${Math.random().toString(36).slice(2)}.har`);
  writeFileSync(
    file,
    JSON.stringify({
      log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [entry] },
    }),
  );
  return file;
}

const capture = () => {
  const lines = { out: [] as string[], err: [] as string[] };
  return {
    lines,
    output: { out: (t: string) => lines.out.push(t), err: (t: string) => lines.err.push(t) },
  };
};

describe('paysandbox parity --har (a HAR a user brings)', () => {
  it('exits 1 on an unexplained difference, printing it and writing JUnit with one failure', async () => {
    const { lines, output } = capture();
    const junit = join(dir, 'parity.xml');
    const code = await runParityCli(
      ['--har', harWith({ 'crypto-accounts': [{ id: 'a', nickname: 'x' }] }), '--junit', junit],
      {},
      output,
    );
    expect(code).toBe(1);
    expect(lines.out.join('\n')).toMatch(
      /UNEXPLAINED missing crypto-accounts\[\]\.nickname\s+recorded string "x"; ours absent/,
    );
    expect(readFileSync(junit, 'utf8')).toMatch(
      /tests="1" failures="1"[\s\S]*<failure message="\d+ unexplained difference\(s\)">missing crypto-accounts\[\]\.nickname/,
    );
  });

  it("holds a user's HAR to every difference: the corpus' accepted deviations excuse only the corpus' own entries", async () => {
    // The corpus' crypto-accounts entries are excused these differences (the 2015 doc example's wallet);
    // a staging answer that differs the same way must show them, even in a file named like the corpus'.
    const body = {
      'crypto-accounts': [
        {
          id: 'a',
          name: 'PHP Wallet',
          currency: 'PBTC',
          balance: '1.5',
          pending_balance: '0.00000000',
          default_address: 'x',
        },
      ],
    };
    const named = join(mkdtempSync(join(dir, 'staging-')), 'crypto-accounts.har');
    writeFileSync(named, readFileSync(harWith(body)));
    const { lines, output } = capture();
    expect(await runParityCli(['--har', named, '--json'], {}, output)).toBe(1);
    const json = JSON.parse(lines.out.join('')) as {
      results: Array<{ key: string; status: string; differences: Array<{ verdict: string }> }>;
    };
    const [r] = json.results;
    expect(r?.key).toBe('crypto-accounts.har#0');
    expect(r?.status).toBe('unexplained');
    expect(r?.differences.length).toBeGreaterThan(0);
    expect(new Set(r?.differences.map((d) => d.verdict))).toEqual(new Set(['unexplained']));
    // The committed corpus file itself, given with --har, keeps its accepted deviations.
    const corpus = capture();
    const code = await runParityCli(
      ['--har', join(packageRoot(), 'parity', 'recorded', 'crypto-accounts.har'), '--json'],
      {},
      corpus.output,
    );
    expect(code).toBe(0);
    const statuses = (
      JSON.parse(corpus.lines.out.join('')) as { results: Array<{ status: string }> }
    ).results.map((r) => r.status);
    expect(statuses).toContain('accepted');
  });

  it('shows our answer (trimmed) when the status differs, in the text report and in --json', async () => {
    // A recorded transfer that staging took (201): ours refuses the body it sends, and says why.
    const file = harWith({ transfer: { id: 'a', amount: '5' } });
    const har = JSON.parse(readFileSync(file, 'utf8')) as {
      log: { entries: Array<Record<string, Record<string, unknown>>> };
    };
    const [entry] = har.log.entries;
    if (!entry?.request || !entry.response) throw new Error('no entry');
    Object.assign(entry.request, {
      method: 'POST',
      url: 'https://staging.example/v3/transfers/',
      postData: { mimeType: 'application/json', text: '{}' },
    });
    entry.response.status = 201;
    writeFileSync(file, JSON.stringify(har));
    const text = capture();
    expect(await runParityCli(['--har', file], {}, text.output)).toBe(1);
    expect(text.lines.out.join('\n')).toMatch(
      /recorded 201; ours 400[\s\S]*our answer: \{.*"errors"/,
    );
    const json = capture();
    expect(await runParityCli(['--har', file, '--json'], {}, json.output)).toBe(1);
    const [r] = (JSON.parse(json.lines.out.join('')) as { results: Array<{ ours?: string }> })
      .results;
    expect(r?.ours).toMatch(/"errors"/);
    expect(r?.ours?.length).toBeLessThanOrEqual(300);
  });

  it('names the JUnit suites after the command that wrote them (parity or replay)', () => {
    const r = [
      {
        key: 's.har#0',
        family: 's',
        method: 'GET',
        url: 'https://x/v3/crypto-accounts/',
        evidence: 'recorded',
        status: 'match' as const,
        differences: [],
      },
    ];
    expect(junitReport(r)).toMatch(
      /<testsuites name="paysandbox parity"[\s\S]*classname="parity\.s"/,
    );
    expect(junitReport(r, 'replay')).toMatch(
      /<testsuites name="paysandbox replay"[\s\S]*<testsuite name="replay"[\s\S]*classname="replay\.s"/,
    );
  });

  it('refuses a production URL and a file that is not HAR as usage errors', async () => {
    await expect(runParityCli(['--base-url', 'https://api.coins.asia'], {})).rejects.toThrow(
      UsageError,
    );
    const notHar = join(dir, 'x.har');
    writeFileSync(notHar, '{"log": {}}');
    await expect(runParityCli(['--har', notHar], {})).rejects.toThrow(
      /x\.har: not a HAR file \(no log\.entries\)/,
    );
    await expect(runParityCli(['--har', join(dir, 'missing.har')], {})).rejects.toThrow(
      /missing\.har: no such file$/,
    );
  });
});
