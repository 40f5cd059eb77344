import { afterEach, describe, expect, it } from 'vitest';
import {
  startMerchantReceiver,
  type ReceiverOptions,
} from '../../examples/merchant-callback/server.js';
import { openDatabase } from '../db/open.js';
import { createSandbox, sharedSpec } from '../sandbox.js';
import { listen } from '../server.js';
import { runCli, spawnCli, type RunningCli } from '../testing/spawn-server.js';

const TOKEN = 'listen-control-secret';
const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A real sandbox server with its dispatcher, the merchant's own receiver, and a "local app" receiver. */
async function setup(respond?: ReceiverOptions['respond']) {
  const sandbox = createSandbox({
    db: openDatabase(':memory:'),
    spec: sharedSpec(),
    config: { db: ':memory:', port: 0, quiet: true, controlToken: TOKEN },
  });
  const merchant = sandbox.fixtures.merchants[0]!;
  const merchantReceiver = await startMerchantReceiver({
    token: merchant.merchant_api_token,
    port: 0,
    respond,
  });
  const local = await startMerchantReceiver({
    token: merchant.merchant_api_token,
    port: 0,
    path: '/callback',
  });
  sandbox.modules.identities.api.updateMerchant(merchant.id, {
    callback_url: merchantReceiver.url,
  });
  const server = await listen(sandbox);
  sandbox.startBackground();
  cleanups.push(
    () => merchantReceiver.close(),
    () => local.close(),
    () => sandbox.close(),
    () => server.stop(),
  );
  const trigger = (event: string) =>
    fetch(`${server.url}/_sandbox/trigger`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-token': TOKEN },
      body: JSON.stringify({ event }),
    }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { invoice: { id: string } },
    }));
  return { sandbox, server, merchant, merchantReceiver, local, trigger };
}

function startListen(args: string[]): RunningCli {
  const cli = spawnCli(['listen', ...args], { env: { SANDBOX_CONTROL_TOKEN: '' } });
  cleanups.push(async () => {
    if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
    await cli.exited;
  });
  return cli;
}

describe('paysandbox listen', () => {
  it('prints events and attempts as they happen and forwards a real callback to a local URL, Ctrl-C exits 0', async () => {
    const { server, merchant, merchantReceiver, local, trigger, sandbox } = await setup();
    const cli = startListen([
      '--forward-to',
      local.url,
      '--url',
      server.url,
      '--control-token',
      TOKEN,
      '--events',
      'invoice.fully_paid',
    ]);
    await cli.waitFor(
      /Ready: .* \(merchant [0-9a-f]{32}\), events invoice\.fully_paid, on http:\/\/127\.0\.0\.1:\d+; forwarding to http:\/\/127\.0\.0\.1:\d+\/callback\./,
    );

    const { status, body } = await trigger('invoice.fully_paid');
    expect(status).toBe(201);
    const invoiceId = body.invoice.id;

    // The local app gets the callback: the same body and headers the merchant's own receiver got.
    const forwarded = await local.waitFor((cb) => cb.event?.event.name === 'invoice.fully_paid');
    const original = await merchantReceiver.waitFor(
      (cb) => cb.event?.event.name === 'invoice.fully_paid',
    );
    expect(forwarded.status).toBe(200);
    expect(forwarded.body).toBe(original.body);
    expect(forwarded.eventId).toBe(original.eventId);
    expect(forwarded.headers['content-type']).toBe('application/json');
    expect(forwarded.headers['x-sandbox-forwarded']).toBe('1');
    expect(original.headers['x-sandbox-forwarded']).toBeUndefined();
    // Only the chosen event is forwarded; invoice.created went to the merchant alone.
    expect(local.received.map((r) => r.event?.event.name)).toEqual(['invoice.fully_paid']);
    expect(merchantReceiver.received.map((r) => r.event?.event.name)).toEqual([
      'invoice.created',
      'invoice.fully_paid',
    ]);

    const out = await cli.waitFor(/attempt  invoice\.fully_paid .*#1 \[200\] [\d.]+ ms delivered/);
    expect(out[0]).toContain(`→ ${merchantReceiver.url}`);
    expect(cli.output()).toMatch(
      new RegExp(
        `event {4}invoice\\.fully_paid +invoice=${invoiceId} event_id=${original.eventId}`,
      ),
    );
    // Forwarded once the sandbox sent it: the line follows the attempt's.
    await cli.waitFor(
      new RegExp(
        `forward  invoice\\.fully_paid +invoice=${invoiceId} \\(first delivery\\) → ${local.url.replace(/[.]/g, '\\.')}  \\[200\\]`,
      ),
    );
    expect(cli.output()).toMatch(
      new RegExp(`attempt  invoice\\.fully_paid +invoice=${invoiceId} → `),
    );
    expect(cli.output()).not.toMatch(/invoice\.created/);

    // Listening changed nothing about the merchant.
    expect(sandbox.modules.identities.api.merchantById(merchant.id)!.callback_url).toBe(
      merchantReceiver.url,
    );

    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
    expect(cli.output()).toMatch(/paysandbox listen: stopped\n$/);
  });

  it('forwards every send: a redelivery, a manual send and a retry reach --forward-to, each line naming the invoice', async () => {
    let failOnce = false;
    const { server, local, trigger } = await setup(() =>
      failOnce ? ((failOnce = false), { status: 500 }) : undefined,
    );
    const cli = startListen([
      '--forward-to',
      local.url,
      '--url',
      server.url,
      '--control-token',
      TOKEN,
      '--events',
      'invoice.fully_paid',
    ]);
    await cli.waitFor(/Ready: /);
    const id = (await trigger('invoice.fully_paid')).body.invoice.id;
    const first = await local.waitFor((cb) => cb.event?.event.name === 'invoice.fully_paid');
    const control = (path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: {
          'x-sandbox-token': TOKEN,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { delivery: { id: string; event_id: string } },
      }));
    const list = await fetch(
      `${server.url}/_sandbox/deliveries?invoice_id=${id}&event=invoice.fully_paid&status=delivered&wait=10`,
      {
        headers: { 'x-sandbox-token': TOKEN },
      },
    ).then((r) => r.json() as Promise<{ deliveries: Array<{ id: string }> }>);

    // Redeliver (the dashboard's button calls the same endpoint): the same event id reaches the local app again.
    const again = await control(`/_sandbox/deliveries/${list.deliveries[0]!.id}/redeliver`);
    expect(again.status).toBe(202);
    await local.waitFor((cb) => cb.event?.event.name === 'invoice.fully_paid' && cb !== first);
    expect(local.received.filter((r) => r.eventId === first.eventId)).toHaveLength(2);
    await cli.waitFor(
      new RegExp(
        `resend   invoice\\.fully_paid +invoice=${id} event_id=${first.eventId} \\(redelivery of ${list.deliveries[0]!.id}\\)`,
      ),
    );
    await cli.waitFor(
      new RegExp(`forward  invoice\\.fully_paid +invoice=${id} \\(redelivery\\) → .*\\[200\\]`),
    );

    // A manual send: a new event id, forwarded too.
    const manual = await control(`/_sandbox/invoices/${id}/callbacks`, {
      event: 'invoice.fully_paid',
    });
    expect(manual.status).toBe(201);
    await local.waitFor((cb) => cb.eventId === manual.body.delivery.event_id);
    await cli.waitFor(
      new RegExp(`forward  invoice\\.fully_paid +invoice=${id} \\(manual send\\) → .*\\[200\\]`),
    );

    // A retry of the merchant's delivery is a send as well: forwarded with its attempt number.
    failOnce = true;
    const retried = await control(`/_sandbox/invoices/${id}/callbacks`, {
      event: 'invoice.fully_paid',
    });
    await cli.waitFor(/attempt  invoice\.fully_paid .*#1 \[500\]/);
    await fetch(`${server.url}/_sandbox/clock/advance`, {
      method: 'POST',
      headers: { 'x-sandbox-token': TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 10 }),
    });
    const retry = await local.waitFor(
      (cb) =>
        cb.eventId === retried.body.delivery.event_id &&
        cb.headers['x-sandbox-delivery-attempt'] === '2',
    );
    expect(retry.headers['x-sandbox-forwarded']).toBe('1');
    await cli.waitFor(
      new RegExp(`forward  invoice\\.fully_paid +invoice=${id} \\(retry #2\\) → .*\\[200\\]`),
    );
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
  });

  it('forwards a first delivery that goes out after listen started, queued behind a failing one before it', async () => {
    let down = true;
    const { server, local, trigger, merchantReceiver } = await setup(() =>
      down ? { status: 503 } : undefined,
    );
    // Before listen: invoice.created fails, so invoice.fully_paid waits behind it, never sent.
    const id = (await trigger('invoice.fully_paid')).body.invoice.id;
    await merchantReceiver.waitFor((cb) => cb.event?.event.name === 'invoice.created');
    const cli = startListen([
      '--forward-to',
      local.url,
      '--url',
      server.url,
      '--control-token',
      TOKEN,
    ]);
    await cli.waitFor(/Ready: /);
    // The receiver is back: the retry of invoice.created goes out, then invoice.fully_paid's first delivery.
    down = false;
    await fetch(`${server.url}/_sandbox/clock/advance`, {
      method: 'POST',
      headers: { 'x-sandbox-token': TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 11 }),
    });
    const paid = await local.waitFor((cb) => cb.event?.event.name === 'invoice.fully_paid');
    expect(paid.headers['x-sandbox-forwarded']).toBe('1');
    expect(paid.headers['x-sandbox-delivery-attempt']).toBe('1');
    const original = await merchantReceiver.waitFor(
      (cb) => cb.event?.event.name === 'invoice.fully_paid',
    );
    expect(paid.body).toBe(original.body);
    await cli.waitFor(
      new RegExp(
        `forward  invoice\\.fully_paid +invoice=${id} \\(first attempt, queued before listen started\\) → .*\\[200\\]`,
      ),
    );
    // Each send once: the retry of invoice.created and the first delivery of invoice.fully_paid.
    await cli.waitFor(/forward  invoice\.created .*\(retry #2\)/);
    expect(local.received.map((r) => r.event?.event.name).sort()).toEqual([
      'invoice.created',
      'invoice.fully_paid',
    ]);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
  });

  it('forwards a send when the sandbox sends it: one queued behind a failing delivery reaches the local URL after it', async () => {
    let down = true;
    const { server, local, trigger, merchantReceiver } = await setup(() =>
      down ? { status: 503 } : undefined,
    );
    const cli = startListen([
      '--forward-to',
      local.url,
      '--url',
      server.url,
      '--control-token',
      TOKEN,
    ]);
    await cli.waitFor(/Ready: /);
    // invoice.created fails at the merchant, so invoice.fully_paid waits behind it: not sent, not forwarded.
    const id = (await trigger('invoice.fully_paid')).body.invoice.id;
    await cli.waitFor(/attempt  invoice\.created .*#1 \[503\]/);
    await cli.waitFor(/forward  invoice\.created .*\(first delivery\)/);
    await new Promise((r) => setTimeout(r, 300));
    expect(local.received.map((r) => r.event?.event.name)).toEqual(['invoice.created']);
    down = false;
    await fetch(`${server.url}/_sandbox/clock/advance`, {
      method: 'POST',
      headers: { 'x-sandbox-token': TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 11 }),
    });
    await local.waitFor((cb) => cb.event?.event.name === 'invoice.fully_paid');
    await merchantReceiver.waitFor((cb) => cb.event?.event.name === 'invoice.fully_paid');
    const sends = (received: typeof local.received) =>
      received.map((r) => [r.event?.event.name, r.headers['x-sandbox-delivery-attempt']]);
    // The local app sees the merchant's order, each send once, with the attempt it copies.
    const order = [
      ['invoice.created', '1'],
      ['invoice.created', '2'],
      ['invoice.fully_paid', '1'],
    ];
    expect(sends(merchantReceiver.received)).toEqual(order);
    expect(sends(local.received)).toEqual(order);
    await cli.waitFor(
      new RegExp(`forward  invoice\\.fully_paid +invoice=${id} \\(first delivery\\) → .*\\[200\\]`),
    );
    const lines = cli.output().split('\n');
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
    expect(at(/attempt  invoice\.fully_paid .*#1 \[200\]/)).toBeLessThan(
      at(/forward  invoice\.fully_paid/),
    );
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
  });

  it('prints one JSON object per line with --json', async () => {
    const { server, local, trigger } = await setup();
    const cli = startListen([
      '--forward-to',
      local.url,
      '--url',
      server.url,
      '--control-token',
      TOKEN,
      '--json',
    ]);
    await cli.waitFor(/"type":"ready"/);
    await trigger('invoice.fully_paid');
    await cli.waitFor(/"type":"attempt".*"event":"invoice\.fully_paid"/);
    await cli.waitFor(/"type":"forward".*"event":"invoice\.fully_paid"/);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
    const lines = cli
      .output()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; event?: string; status_code?: number });
    expect(lines[0]!.type).toBe('ready');
    expect(lines.filter((l) => l.type === 'event').map((l) => l.event)).toEqual([
      'invoice.created',
      'invoice.fully_paid',
    ]);
    expect(lines.filter((l) => l.type === 'forward').map((l) => [l.event, l.status_code])).toEqual([
      ['invoice.created', 200],
      ['invoice.fully_paid', 200],
    ]);
  });

  it('refuses bad usage (exit 2), a wrong control token and an unreachable sandbox (exit 1), each in one line', async () => {
    const { server } = await setup();
    const unknown = await runCli(['listen', '--url', server.url, '--events', 'invoice.paid'], {
      env: { SANDBOX_CONTROL_TOKEN: TOKEN },
    });
    expect(unknown.code).toBe(2);
    expect(unknown.out).toMatch(
      /^paysandbox listen: unknown event "invoice\.paid"; known events: invoice\.created, .*\n$/,
    );
    const typo = await runCli(['listen', '--forward', 'http://127.0.0.1:1/'], {
      env: { SANDBOX_CONTROL_TOKEN: TOKEN },
    });
    expect(typo.code).toBe(2);
    expect(typo.out).toMatch(
      /^paysandbox listen: unknown flag --forward; did you mean --forward-to\? \(paysandbox listen --help\)\n$/,
    );
    const merchant = await runCli(['listen', '--url', server.url, '--merchant', 'nope'], {
      env: { SANDBOX_CONTROL_TOKEN: TOKEN },
    });
    expect(merchant.code).toBe(2);
    expect(merchant.out).toMatch(
      /refused the stream \(400\): merchant_id: No merchant with this id\./,
    );
    const wrong = await runCli(['listen', '--url', server.url, '--control-token', 'wrong'], {
      env: { SANDBOX_CONTROL_TOKEN: '' },
    });
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/refused the control token \(401\)/);
    await server.stop();
    const gone = await runCli(['listen', '--url', server.url], {
      env: { SANDBOX_CONTROL_TOKEN: TOKEN },
    });
    expect(gone.code).toBe(1);
    expect(gone.out).toMatch(
      /^paysandbox listen: cannot reach the sandbox at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    );
  });
});
