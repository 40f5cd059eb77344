/** The console line of a case and the JUnit file, as a CI log and a CI test view show them. */
import { describe, expect, it } from 'vitest';
import { formatProgress, useColor } from '../harness/progress.reporter.js';
import { renderJunit } from '../harness/junit.report.js';
import type { TargetInfo } from '../harness/target.types.js';

describe('progress lines', () => {
  it('are plain text without a terminal, colored on one, and NO_COLOR / FORCE_COLOR decide over both', () => {
    expect(useColor({ isTTY: false }, {})).toBe(false);
    expect(useColor({ isTTY: true }, {})).toBe(true);
    expect(useColor({ isTTY: true }, { NO_COLOR: '' })).toBe(false);
    expect(useColor({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(useColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(useColor({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
  });

  it('say state, area, case and time on one line; the reason or the drift entry below', () => {
    expect(
      formatProgress(
        { state: 'pass', area: 'auth', name: 'merchant auth: x', durationMs: 12.4 },
        false,
      ),
    ).toBe('  pass  auth  merchant auth: x  (12 ms)');
    const skip = formatProgress(
      {
        state: 'skip',
        area: 'money',
        name: 'transfers: y',
        detail: 'the application needs an OTP',
      },
      false,
    );
    expect(skip).toBe('  skip  money  transfers: y\n        the application needs an OTP');
    const fail = formatProgress(
      {
        state: 'fail',
        area: 'invoices',
        name: 'z',
        durationMs: 3,
        detail: Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n'),
      },
      false,
    );
    expect(fail.split('\n')[0]).toBe('  FAIL  invoices  z  (3 ms)');
    expect(fail.split('\n')).toHaveLength(1 + 14 + 1);
    expect(fail).toMatch(/… 16 more lines in the reports$/);
    expect(fail).not.toMatch(/\u001b\[/);
    expect(formatProgress({ state: 'fail', area: 'a', name: 'b', durationMs: 1 }, true)).toMatch(
      /\u001b\[31mFAIL\u001b\[39m/,
    );
  });
});

describe('junit.xml', () => {
  const target = { kind: 'url', baseUrl: 'https://api.example.stage' } as TargetInfo;
  it('has one classname per area, the case name as test name, skip reasons and failure messages escaped', () => {
    const xml = renderJunit({
      target,
      areas: ['auth', 'paging'],
      areaOf: new Map([
        ['a: one', 'auth'],
        ['p: <two> & "three"', 'paging'],
        ['p: four', 'paging'],
      ]),
      results: [
        { name: 'a: one', tags: ['read'], state: 'pass', notImplemented: [], durationMs: 1500 },
        {
          name: 'p: <two> & "three"',
          tags: ['read'],
          state: 'fail',
          message: 'expected 200, observed 401\ndetail \u0001',
          notImplemented: [],
          durationMs: 20,
        },
        {
          name: 'p: four',
          tags: ['money'],
          state: 'skip',
          message: 'moves money: set CONTRACT_ALLOW_MONEY=1',
          notImplemented: [],
          durationMs: 0,
        },
      ],
    });
    expect(xml).toContain(
      '<testsuites name="paysandbox contract url https://api.example.stage" tests="3" failures="1" skipped="1" errors="0" time="1.520">',
    );
    expect(xml).toContain('<testcase classname="auth" name="a: one" time="1.500"/>');
    expect(xml).toContain(
      '<testcase classname="paging" name="p: &lt;two&gt; &amp; &quot;three&quot;" time="0.020">',
    );
    expect(xml).toContain(
      '<failure message="expected 200, observed 401" type="ContractFailure">expected 200, observed 401\ndetail </failure>',
    );
    expect(xml).toContain('<skipped message="moves money: set CONTRACT_ALLOW_MONEY=1"/>');
    expect(xml).toContain('<testsuite name="paging" tests="2" failures="1" skipped="1"');
  });
});
