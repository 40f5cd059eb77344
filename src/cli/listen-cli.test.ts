import { describe, expect, it } from 'vitest';
import { runCli } from '../testing/spawn-server.js';
import { forwardingArgs, listenCliSetup, TOKEN } from './listen-cli.test-support.js';

/**
 * `paysandbox listen`: what it prints (lines, or JSON with --json), forwarding a callback, Ctrl-C, and
 * bad usage. Forwarding redeliveries, manual sends, retries and queued deliveries is in
 * listen-cli-forwarding.e2e.test.ts.
 */
const { setup, startListen } = listenCliSetup();

describe('paysandbox listen', () => {
  it('prints events and attempts as they happen and forwards a real callback to a local URL, Ctrl-C exits 0', async () => {
    const { server, merchant, merchantReceiver, local, trigger, sandbox } = await setup();
    const cli = startListen(forwardingArgs(server, local, '--events', 'invoice.fully_paid'));
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

  it('prints one JSON object per line with --json', async () => {
    const { server, local, trigger } = await setup();
    const cli = startListen(forwardingArgs(server, local, '--json'));
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
