import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, spawnServer } from '../testing/spawn-server.js';
import { closest } from './args.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
const dir = mkdtempSync(join(tmpdir(), 'paysandbox-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One line on stderr (the runner merges the streams: the whole output is that line). */
const ONE_LINE = /^[^\n]+\n$/;

describe('the paysandbox command line', () => {
  it('prints the version', async () => {
    const { code, out } = await runCli(['--version']);
    expect(out).toBe(`${VERSION}\n`);
    expect(code).toBe(0);
  });

  // One CLI run per test (each loads the sources through tsx: seconds on a busy machine).
  const helps: Array<[string[], RegExp, RegExp]> = [
    [['listen', '--help'], /^Usage: paysandbox listen \[--forward-to URL\]/, /--workspace ID/],
    [
      ['trigger', '-h'],
      /^Usage: paysandbox trigger <event>/,
      /Events: invoice\.created, invoice\.updated/,
    ],
    [['start', '--help'], /^Usage: paysandbox \[start\] \[options\]/, /--log-format/],
    [
      ['check-receiver', '--help'],
      /^Usage: paysandbox check-receiver --url URL/,
      /MERCHANT_API_TOKEN/,
    ],
    [['help', 'listen'], /^Usage: paysandbox listen/, /Ctrl-C stops/],
    [
      ['--help'],
      /^paysandbox — a local sandbox/,
      / {2}paysandbox listen \[--forward-to URL\][^\n]*\n {40}follow a merchant's events/,
    ],
    [
      ['workspace', '--help'],
      /^Usage:\n {2}paysandbox workspace create \[--from-snapshot ID \| --from-file scenario\.json\]/,
      /--out scenario\.json/,
    ],
  ];
  for (const [args, first, also] of helps) {
    it(`shows each command's own help: paysandbox ${args.join(' ')}`, async () => {
      const { code, out } = await runCli(args);
      expect(out, args.join(' ')).toMatch(first);
      expect(out, args.join(' ')).toMatch(also);
      expect(code).toBe(0);
    });
  }

  const typos: Array<[string[], string | RegExp]> = [
    [
      ['start', '--prot', '7071'],
      'paysandbox start: unknown flag --prot; did you mean --port? (paysandbox start --help)\n',
    ],
    // start is the default command
    [
      ['--quite'],
      'paysandbox start: unknown flag --quite; did you mean --quiet? (paysandbox start --help)\n',
    ],
    [
      ['trigger', 'invoice.created', '--timout', '5s'],
      /^paysandbox trigger: unknown flag --timout; did you mean --timeout\?/,
    ],
    [
      ['lisen'],
      'paysandbox: unknown command "lisen"; did you mean listen? (paysandbox --help lists them)\n',
    ],
    [
      ['workspace', 'snapshot', 'x', '--outt', 'f'],
      /^paysandbox workspace: unknown flag --outt; did you mean --out\?/,
    ],
  ];
  for (const [args, said] of typos) {
    it(`suggests the closest flag or command, exit 2, one line: paysandbox ${args.join(' ')}`, async () => {
      const { code, out } = await runCli(args);
      if (typeof said === 'string') expect(out).toBe(said);
      else expect(out).toMatch(said);
      expect(code).toBe(2);
    });
  }

  const badValues = [
    ['start', '--port', 'abc'],
    ['start', '--log-format', 'xml'],
    ['start', '--port'],
    ['listen', '--forward-to', 'ftp://x/'],
    ['workspace', 'create', '--ttl', 'soon'],
  ];
  for (const args of badValues) {
    it(`refuses a bad value as a usage error (exit 2, one line, no stack): paysandbox ${args.join(' ')}`, async () => {
      const { code, out } = await runCli(args);
      expect(out, args.join(' ')).toMatch(ONE_LINE);
      expect(out).toMatch(new RegExp(`^paysandbox ${args[0]}: `));
      expect(code, args.join(' ')).toBe(2);
    });
  }

  it('says at once which database file is locked by another sandbox, and what works instead', async () => {
    const db = join(dir, 'locked.db');
    const first = await spawnServer(['--db', db, '--quiet']);
    try {
      const second = await runCli(['start', '--port', '0', '--db', db]);
      expect(second.out).toBe(
        `paysandbox start: ${db} is in use by another process (a running sandbox keeps its database file locked); ` +
          'stop that one, or start this one with --db :memory: (a throwaway database) or another --db path (paysandbox start --help)\n',
      );
      expect(second.code).toBe(2); // bad usage, like every database path start cannot use
    } finally {
      await first.stop();
    }
  });
});

describe('closest', () => {
  it('finds typos and prefixes, and nothing for a word far from every candidate', () => {
    expect(closest('prot', ['port', 'host'])).toBe('port');
    expect(closest('forward', ['forward-to', 'events'])).toBe('forward-to');
    expect(closest('retry-schedul', ['retry-schedule'])).toBe('retry-schedule');
    expect(closest('xyz', ['port', 'host', 'db'])).toBeUndefined();
  });
});
