import { describe, expect, it } from 'vitest';
import { forwardingArgs, listenCliSetup, TOKEN } from './listen-cli.test-support.js';

/**
 * `paysandbox listen --forward-to`: every send reaches the local URL (a redelivery, a manual send, a
 * retry), and a first delivery queued behind a failing one is forwarded when it goes out. What listen
 * prints, and its bad usage, are in listen-cli.test.ts.
 */
const { setup, startListen } = listenCliSetup();

describe('paysandbox listen', () => {
  it('forwards every send: a redelivery, a manual send and a retry reach --forward-to, each line naming the invoice', async () => {
    let failOnce = false;
    const { server, local, trigger } = await setup(() =>
      failOnce ? ((failOnce = false), { status: 500 }) : undefined,
    );
    const cli = startListen(forwardingArgs(server, local, '--events', 'invoice.fully_paid'));
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
    const cli = startListen(forwardingArgs(server, local));
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
});
