import { describe, expect, it } from 'vitest';
import { runCli } from '../testing/spawn-server.js';
import { controlCliSetup, SLOW } from './control-cli.test-support.js';

const { serve } = controlCliSetup();

describe('the control commands and their common options', () => {
  it(
    'a sandbox that requires a control token: without one, they say so and how to pass it; a wrong one is refused',
    async () => {
      const { server } = await serve();
      const commands = [
        ['deliveries'],
        ['fault', 'list'],
        ['clock'],
        ['workspace', 'create'],
        ['trigger', 'invoice.created', '--timeout', '2s'],
      ];
      for (const args of commands) {
        const name = args[0] ?? '';
        const none = await runCli([...args, '--url', server.url], {
          env: { SANDBOX_CONTROL_TOKEN: '' },
        });
        expect(none.out, args.join(' ')).toBe(
          `paysandbox ${name}: the sandbox at ${server.url} requires a control token (401): pass it with --control-token T or set SANDBOX_CONTROL_TOKEN\n`,
        );
        expect(none.code, args.join(' ')).toBe(1);
      }
      for (const args of [commands[0] ?? [], commands[4] ?? []]) {
        const wrong = await runCli([...args, '--url', server.url, '--control-token', 'nope'], {
          env: { SANDBOX_CONTROL_TOKEN: '' },
        });
        expect(wrong.out, args.join(' ')).toMatch(
          /: the sandbox at \S+ refused the control token \(401\): pass the one it was started with/,
        );
        expect(wrong.code, args.join(' ')).toBe(1);
      }
    },
    SLOW,
  );

  it(
    'a flag without its value says so, also when a flag follows it',
    async () => {
      for (const args of [
        ['deliveries', '--limit'],
        ['deliveries', '--limit', '--all'],
        ['deliveries', '--status', '--json'],
        ['clock', '--workspace', '--json'],
        ['fault', 'add', '--path', '--json'],
        ['workspace', 'create', '--ttl', '--json'],
        ['trigger', 'invoice.created', '--invoice', '--timeout', '1s'],
      ]) {
        const r = await runCli(args, { env: { SANDBOX_CONTROL_TOKEN: '' } });
        const flag = args.find(
          (a, i) => a.startsWith('--') && args[i + 1]?.startsWith('--') !== false,
        );
        expect(r.out, args.join(' ')).toMatch(
          new RegExp(`^paysandbox ${args[0]}: ${flag} needs a value[^\n]*\n$`),
        );
        expect(r.code, args.join(' ')).toBe(2);
      }
    },
    SLOW,
  );
});
