import { resolve } from 'node:path';
import { createHmacSigner } from '../client/hmac.signer.js';
import { packageVersion, parseCommandArgs, UsageError } from './args.js';
import type { CliCommand } from './command.types.js';
import { assertNotProduction } from './production-guard.js';

const USAGE = 'record --upstream URL [--port 7080] [--host H] --out FILE [--mask-pii] [--resign]';

const HELP = `Usage: paysandbox ${USAGE}

A recording proxy: point your app at http://127.0.0.1:7080 (or --port); every request is forwarded to
--upstream (a staging host, or a sandbox: http://127.0.0.1:7070) and the exchange is written to FILE as
HAR 1.2 after each answer, with secrets scrubbed: Access-Key, Access-Signature, Access-OTP, the
Authorization value (its scheme is kept), cookies, tokens, secrets, passwords and one-time codes in bodies
and queries. --mask-pii masks emails and phone numbers too. HMAC signatures cover the URL the app used:
an upstream sandbox verifies them with --trust-proxy (the proxy sends X-Forwarded-Host), and --resign
re-signs each HMAC request for the upstream with CONTRACT_API_KEY and CONTRACT_API_SECRET. Production
hosts are refused as by paysandbox contract (CONTRACT_I_KNOW_THIS_IS_PRODUCTION=1 to force).
Ctrl-C stops; then: paysandbox parity --har FILE (or paysandbox replay --har FILE --base-url URL).`;

/** `paysandbox record`: runs until SIGINT or SIGTERM; the HAR file is complete after every exchange. */
export const recordCommand: CliCommand = {
  name: 'record',
  usage: USAGE,
  summary:
    'a recording proxy: forward to an upstream, write the exchanges as HAR (secrets scrubbed)',
  help: HELP,
  async run(args, env) {
    const { values } = parseCommandArgs(args, {
      upstream: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      out: { type: 'string' },
      'mask-pii': { type: 'boolean' },
      resign: { type: 'boolean' },
    });
    const upstream = values.upstream as string | undefined;
    if (!upstream)
      throw new UsageError(
        '--upstream is required: the service to forward to, e.g. https://api.staging.example or http://127.0.0.1:7070',
      );
    if (!values.out)
      throw new UsageError('--out is required: the HAR file to write, e.g. session.har');
    try {
      assertNotProduction(upstream, env);
    } catch (err) {
      throw new UsageError(
        (err as Error).message.replace('run the contract suite against', 'record'),
      );
    }
    const port = values.port === undefined ? 7080 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`--port must be a port number, got "${values.port}"`);
    let signer;
    if (values.resign) {
      if (!env.CONTRACT_API_KEY || !env.CONTRACT_API_SECRET)
        throw new UsageError('--resign needs CONTRACT_API_KEY and CONTRACT_API_SECRET');
      signer = createHmacSigner({
        apiKey: env.CONTRACT_API_KEY,
        apiSecret: env.CONTRACT_API_SECRET,
        nonceStart: env.CONTRACT_NONCE_START,
      });
    }
    const out = resolve(values.out as string);
    const { startRecorder } = await import('../parity/index.js');
    const host = values.host as string | undefined;
    const recorder = await startRecorder({
      upstream,
      out,
      port,
      host,
      maskPii: values['mask-pii'] === true,
      signer,
      version: packageVersion(),
    });
    console.log(
      `paysandbox record: listening on ${recorder.url}, forwarding to ${upstream}, writing ${out} (Ctrl-C stops)`,
    );
    await new Promise<void>((done) => {
      const stop = () => void recorder.close().then(done);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    console.log(`paysandbox record: ${recorder.entries.length} exchange(s) written to ${out}`);
    return 0;
  },
};
