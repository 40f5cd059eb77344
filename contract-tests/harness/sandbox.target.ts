import { createControlClient, createHmacSigner } from '../../src/client/index.js';
import type { Fixtures } from '../../src/fixtures/fixture-types.js';
import { takeRunWorkspaces, workspaceCredentials } from './run.workspace.js';
import { newRunId } from './target.safety.js';
import type { Credentials, Target, TargetOptions } from './target.types.js';
import { itemAt } from '../../src/shared/defined.js';

function fixtureCredentials(fx: Fixtures, merchantIndex = 0): Credentials {
  const merchant = itemAt(fx.merchants, merchantIndex);
  const other = fx.merchants.find((m) => m.id !== merchant.id);
  const dev = fx.developers.find((d) => d.app.mfa_whitelisted) ?? itemAt(fx.developers, 0);
  return {
    merchantToken: merchant.merchant_api_token,
    merchantBearer: merchant.bearer_token ?? undefined,
    merchantToken2: other?.merchant_api_token,
    merchantId: merchant.id,
    apiKey: dev.app.api_key,
    apiSecret: dev.app.api_secret,
    otpSecret: dev.app.otp_secret,
    transferTarget: fx.customers[0]?.email,
    customer: fx.customers[0]?.email,
  };
}

/**
 * The default target: the sandbox started in this process on a free 127.0.0.1 port with a fresh
 * `:memory:` database, reached over real HTTP only. Credentials come from a workspace taken through
 * the control API, or from the fixtures while `POST /_sandbox/workspaces` is not available.
 */
export async function createSandboxTarget(opts: TargetOptions = {}): Promise<Target> {
  const [{ createSandbox }, { openDatabase }, { listen }] = await Promise.all([
    import('../../src/sandbox.js'),
    import('../../src/db/open.js'),
    import('../../src/server.js'),
  ]);
  const sandbox = createSandbox({
    db: openDatabase(':memory:'),
    config: { db: ':memory:', host: '127.0.0.1', port: 0, quiet: true },
  });
  const server = await listen(sandbox);
  sandbox.config.publicUrl = server.url;
  sandbox.startBackground();
  let releaseWorkspaces: () => Promise<void> = async () => undefined;
  const close = async () => {
    await releaseWorkspaces();
    await server.stop();
    await sandbox.close();
  };
  try {
    const fetchFn = opts.fetch ?? globalThis.fetch;
    const control = createControlClient({ baseUrl: server.url, fetch: fetchFn, retry: false });
    const hasControl = await control.available();
    const fixtureMerchant = opts.fixtureMerchant;
    const workspaces =
      hasControl && fixtureMerchant === undefined ? await takeRunWorkspaces(control) : undefined;
    if (workspaces) releaseWorkspaces = workspaces.release;
    const creds = workspaces
      ? workspaceCredentials(workspaces)
      : fixtureCredentials(sandbox.fixtures, fixtureMerchant);
    return {
      info: {
        kind: 'sandbox',
        baseUrl: server.url,
        hasControl,
        allowMoney: true,
        allowWrite: true,
        runId: opts.runId ?? newRunId(),
        credentialSource: workspaces ? 'workspace' : 'fixtures',
        workspaceId: workspaces?.main.id,
        loopback: true,
      },
      creds,
      fetch: fetchFn,
      signer: createHmacSigner({ apiKey: creds.apiKey, apiSecret: creds.apiSecret }),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
