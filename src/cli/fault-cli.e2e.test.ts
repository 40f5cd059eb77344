import { describe, expect, it } from 'vitest';
import { itemAt, required } from '../shared/defined.js';
import { runCli } from '../testing/spawn-server.js';
import { controlCliSetup, SLOW } from './control-cli.test-support.js';

const { serve } = controlCliSetup();

describe('paysandbox fault', () => {
  it(
    'adds, lists (with hits) and removes faults through the control API',
    async () => {
      const { cli, server, sandbox } = await serve();
      const add = await cli([
        'fault',
        'add',
        '--method',
        'post',
        '--path',
        '/v1/invoices',
        '--status',
        '503',
        '--count',
        '2',
        '--body',
        '{"detail":"down"}',
      ]);
      expect(add.code).toBe(0);
      const id = /^added ([0-9a-f]{32})  POST   \/v1\/invoices  status 503, count 2  hits 0$/m.exec(
        add.out,
      )?.[1];
      expect(id).toBeDefined();
      const res = await fetch(`${server.url}/v1/invoices/`, {
        method: 'POST',
        headers: {
          authorization: `Token ${itemAt(sandbox.fixtures.merchants, 0).merchant_api_token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          amount: 20,
          currency: 'PHP',
          external_transaction_id: 'fault-cli-1',
        }),
      });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ detail: 'down' });
      const slow = await cli(['fault', 'add', '--path', '/v3/**', '--latency', '2s']);
      expect(slow.out).toMatch(/^added [0-9a-f]{32}  \* +\/v3\/\*\*  latency 2000 ms  hits 0$/m);
      const list = await cli(['fault', 'list']);
      expect(list.out).toMatch(
        new RegExp(
          `^${id}  POST   /v1/invoices  status 503, count 1  hits 1  last_hit \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z POST /v1/invoices/$`,
          'm',
        ),
      );
      expect((await cli(['fault', 'rm', required(id, 'the added fault id')])).out).toBe(
        `removed ${id}\n`,
      );
      expect(JSON.parse((await cli(['fault', 'list', '--json'])).out).faults).toHaveLength(1);
      expect((await cli(['fault', 'rm', '--all'])).code).toBe(0);
      expect((await cli(['fault', 'list'])).out).toBe('no faults\n');
    },
    SLOW,
  );

  it(
    'refuses bad usage (exit 2) and relays the field errors of the sandbox (exit 1)',
    async () => {
      const { cli } = await serve();
      expect((await runCli(['help', 'fault'])).out).toMatch(
        /^Usage: paysandbox fault add --path GLOB/,
      );
      expect((await cli(['fault'])).out).toBe(
        'paysandbox fault: which sub-command? one of add, list, rm (paysandbox fault --help)\n',
      );
      expect((await cli(['fault', 'add'])).code).toBe(2);
      expect((await cli(['fault', 'add', '--path', '/x', '--latency', 'soon'])).code).toBe(2);
      expect((await cli(['fault', 'add', '--path', '/x', '--body', '{bad'])).code).toBe(2);
      for (const p of ['2', '-0.5', 'half']) {
        const out = await cli(['fault', 'add', '--path', '/v1/invoices', '--probability', p]);
        expect(out.code).toBe(2);
        expect(out.out).toBe(
          `paysandbox fault: --probability must be a number from 0 to 1, got "${p}" (paysandbox fault --help)\n`,
        );
      }
      const status = await cli(['fault', 'add', '--path', '/v1/invoices', '--status', '99']);
      expect(status.code).toBe(1);
      expect(status.out).toMatch(
        /^paysandbox fault: POST \/_sandbox\/faults answered 400: status: /,
      );
      expect((await cli(['fault', 'rm', '0'.repeat(32)])).code).toBe(1);
    },
    SLOW,
  );
});
