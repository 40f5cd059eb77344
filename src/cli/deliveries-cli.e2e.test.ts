import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { itemAt } from '../shared/defined.js';
import { runCli } from '../testing/spawn-server.js';
import { controlCliSetup, freePort, SLOW, TOKEN } from './control-cli.test-support.js';

const { serve, onCleanup } = controlCliSetup();

describe('paysandbox deliveries', () => {
  it(
    'lists the deliveries of an invoice, filters by status, and resends one (a redelivery with the same event id)',
    async () => {
      const { call, trigger, cli } = await serve();
      const id = await trigger('invoice.fully_paid');
      await call(
        'GET',
        `/_sandbox/deliveries?invoice_id=${id}&event=invoice.fully_paid&status=delivered&wait=10`,
      );
      const list = await cli(['deliveries', '--invoice', id]);
      expect(list.code).toBe(0);
      const lines = list.out.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(
        new RegExp(
          `^[0-9a-f]{32}  invoice\\.fully_paid +invoice=${id}  delivered +1 attempt\\(s\\)  http://127\\.0\\.0\\.1:\\d+/_sandbox/inbox/[0-9a-f]{32}$`,
        ),
      );
      expect(lines[1]).toMatch(/invoice\.created .* delivered/);
      expect((await cli(['deliveries', '--invoice', id, '--status', 'failed'])).out).toBe(
        'no deliveries match\n',
      );

      const original = itemAt(lines, 0).slice(0, 32);
      const resend = await cli(['deliveries', 'resend', original]);
      expect(resend.code).toBe(0);
      expect(resend.out).toMatch(
        new RegExp(
          `^queued ([0-9a-f]{32}): invoice\\.fully_paid of invoice ${id} again \\(redelivery of ${original}, the same event id\\)`,
        ),
      );
      const json = await cli([
        'deliveries',
        '--invoice',
        id,
        '--event',
        'invoice.fully_paid',
        '--json',
      ]);
      const page = JSON.parse(json.out) as {
        deliveries: Array<{
          id: string;
          event_id: string;
          redelivery_of: string | null;
          kind: string;
        }>;
      };
      expect(page.deliveries).toHaveLength(2);
      expect(page.deliveries[0]).toMatchObject({
        redelivery_of: original,
        kind: 'redelivery',
        event_id: itemAt(page.deliveries, 1).event_id,
      });
    },
    SLOW,
  );

  it(
    'lists more than 100 deliveries page by page: --limit above 100, --all, in the table and as JSON',
    async () => {
      const { call, trigger, cli, sandbox, server } = await serve();
      // No callback URL: each delivery fails at once (nothing is sent), so the run stays cheap.
      for (const m of sandbox.fixtures.merchants)
        sandbox.modules.identities.api.updateMerchant(m.id, { callback_url: null });
      const id = await trigger('invoice.created');
      for (let i = 0; i < 130; i++) {
        const sent = await call<{ delivery?: { id: string } }>(
          'POST',
          `/_sandbox/invoices/${id}/callbacks`,
          {
            event: 'invoice.created',
          },
        );
        expect(sent.delivery?.id, JSON.stringify(sent)).toBeTruthy();
      }
      // What the control API pages, newest first: the reference for every listing below.
      type Listed = { deliveries: Array<{ id: string }> };
      const pages = [
        await call<Listed>('GET', `/_sandbox/deliveries?invoice_id=${id}&per_page=100`),
        await call<Listed>('GET', `/_sandbox/deliveries?invoice_id=${id}&per_page=100&page=2`),
      ];
      const ids = pages.flatMap((p) => p.deliveries.map((d) => d.id));
      expect(ids).toHaveLength(131);
      expect(new Set(ids).size).toBe(131);
      type Page = { deliveries: Array<{ id: string }>; meta: Record<string, unknown> };
      const json = async (...args: string[]) => {
        const r = await cli(['deliveries', '--invoice', id, '--json', ...args]);
        expect(r.code, r.out).toBe(0);
        return JSON.parse(r.out) as Page;
      };
      const all = await json('--all');
      expect(all.deliveries.map((d) => d.id)).toEqual(ids);
      // Into a pipe whose reader is slow (`| jq`): the ~90 KB JSON is written whole before the exit, not
      // cut at the pipe's 64 KiB.
      const piped = await cli(['deliveries', '--invoice', id, '--json', '--all'], 1500);
      expect(piped.code, piped.out.slice(-200)).toBe(0);
      expect(piped.out.length).toBeGreaterThan(65_536);
      expect((JSON.parse(piped.out) as Page).deliveries.map((d) => d.id)).toEqual(ids);
      expect(all.meta).toEqual({ total_count: 131, next_page: null, previous_page: null });
      const more = await json('--limit', '150');
      expect(more.deliveries.map((d) => d.id)).toEqual(ids);
      expect(more.meta).toEqual({ total_count: 131, next_page: null, previous_page: null });
      const some = await json('--limit', '120');
      expect(some.deliveries.map((d) => d.id)).toEqual(ids.slice(0, 120));
      expect(some.meta).toEqual({ total_count: 131, next_page: 2, previous_page: null });
      const lines = async (...args: string[]) => {
        const r = await cli(['deliveries', '--invoice', id, ...args]);
        expect(r.code, r.out).toBe(0);
        const out = r.out.trim().split('\n');
        return {
          ids: out.filter((l) => /^[0-9a-f]{32}  /.test(l)).map((l) => l.slice(0, 32)),
          last: out.at(-1),
        };
      };
      const table = await lines('--all');
      expect(table.ids).toEqual(ids);
      expect(table.last).toMatch(/^ {4}the merchant has no callback_url/);
      const partial = await lines('--limit', '101');
      expect(partial.ids).toEqual(ids.slice(0, 101));
      expect(partial.last).toBe('(101 of 131; --limit N or --all for more)');
      const first = await lines();
      expect(first.ids).toEqual(ids.slice(0, 20));
      expect(first.last).toBe('(20 of 131; --limit N or --all for more)');
      // Deliveries made while it pages (4, just before page 2 is read): --all lists what it read, and
      // its meta and table say so (no "of 135", no next page).
      let added = false;
      const proxy = createHttpServer((req, res) => {
        void (async () => {
          if (!added && req.url?.includes('page=2')) {
            added = true;
            for (let i = 0; i < 4; i++)
              await call('POST', `/_sandbox/invoices/${id}/callbacks`, {
                event: 'invoice.created',
              });
          }
          const answer = await fetch(`${server.url}${req.url ?? '/'}`, {
            headers: { 'x-sandbox-token': TOKEN },
          });
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(await answer.text());
        })();
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      onCleanup(() => new Promise((resolve) => proxy.close(resolve)));
      const proxied = async (...args: string[]) => {
        added = false;
        const { port } = proxy.address() as AddressInfo;
        const r = await runCli(
          ['deliveries', '--invoice', id, ...args, '--url', `http://127.0.0.1:${port}`],
          { env: { SANDBOX_CONTROL_TOKEN: TOKEN } },
        );
        expect(r.code, r.out).toBe(0);
        expect(added).toBe(true);
        return r.out;
      };
      const during = JSON.parse(await proxied('--all', '--json')) as Page;
      expect(during.deliveries.map((d) => d.id)).toEqual(ids);
      expect(during.meta).toEqual({ total_count: 131, next_page: null, previous_page: null });
      const duringTable = (await proxied('--all')).trim().split('\n');
      // (the 4 of the first run are listed now, 4 more came while it read)
      expect(duringTable.filter((l) => /^[0-9a-f]{32}  /.test(l))).toHaveLength(135);
      expect(duringTable.at(-1)).toMatch(/^ {4}the merchant has no callback_url/);

      for (const bad of [
        ['--limit', '0'],
        ['--limit', '1.5'],
        ['--limit', '1e3'],
        ['--limit', '0x10'],
        ['--all', '--limit', '5'],
      ]) {
        const r = await cli(['deliveries', ...bad]);
        expect(r.code, bad.join(' ')).toBe(2);
        expect(r.out, bad.join(' ')).toMatch(/^paysandbox deliveries: --limit /);
      }
    },
    SLOW,
  );

  it(
    'says why a pending delivery waits: queued behind the failing one of the same invoice',
    async () => {
      const { call, trigger, cli, sandbox } = await serve();
      const m = itemAt(sandbox.fixtures.merchants, 0);
      sandbox.modules.identities.api.updateMerchant(m.id, {
        callback_url: 'http://127.0.0.1:9/nothing-listens',
      });
      const id = await trigger('invoice.fully_paid');
      await call(
        'GET',
        `/_sandbox/deliveries?invoice_id=${id}&event=invoice.created&status=pending&wait=10`,
      );
      let out = '';
      for (let i = 0; i < 20 && !/which is failing/.test(out); i++)
        out = (await cli(['deliveries', '--invoice', id, '--status', 'pending'])).out;
      expect(out).toMatch(
        /invoice\.fully_paid .* pending +0 attempt\(s\)[^\n]*\n {4}queued behind delivery [0-9a-f]{32} \(invoice\.created\), which is failing \(1 attempt\(s\), last: connection failed: [^;]+; its attempt 2 of 9 is at \S+Z\)/,
      );
      expect(out).toMatch(
        /invoice\.created .* pending +1 attempt\(s\)[^\n]*\n {4}attempt 1 failed \(connection failed: .*\); next attempt at \S+Z \(attempt 2 of 9\)/,
      );
    },
    SLOW,
  );

  it(
    'refuses bad usage (exit 2) and names what the sandbox refused (exit 1)',
    async () => {
      const { cli } = await serve();
      const help = await runCli(['deliveries', '--help']);
      expect(help.out).toMatch(/^Usage: paysandbox deliveries \[--invoice ID\] \[--status S\]/);
      expect(help.out).toMatch(/paysandbox deliveries resend ID/);
      expect(help.code).toBe(0);
      const status = await cli(['deliveries', '--status', 'lost']);
      expect(status.code).toBe(2);
      expect(status.out).toBe(
        'paysandbox deliveries: --status must be one of pending, delivering, delivered, failed, got "lost" (paysandbox deliveries --help)\n',
      );
      expect((await cli(['deliveries', 'resend'])).code).toBe(2);
      const unknown = await cli(['deliveries', 'resend', '0'.repeat(32)]);
      expect(unknown.code).toBe(1);
      expect(unknown.out).toMatch(
        /^paysandbox deliveries: POST \/_sandbox\/deliveries\/0+\/redeliver answered 404: Not found\.\n$/,
      );
      const closed = await freePort();
      const gone = await runCli(['deliveries', '--url', `http://127.0.0.1:${closed}`], {
        env: { SANDBOX_CONTROL_TOKEN: '' },
      });
      expect(gone.code).toBe(1);
      expect(gone.out).toMatch(
        new RegExp(
          `^paysandbox deliveries: cannot reach the sandbox at http://127\\.0\\.0\\.1:${closed} \\(ECONNREFUSED\\)`,
        ),
      );
    },
    SLOW,
  );
});
