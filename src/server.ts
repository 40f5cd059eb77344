import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { isLoopback, listeningUrl } from './config.js';
import type { Sandbox } from './sandbox.js';
import { selfUrl } from './shared/sandbox-url.js';

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  stop(): Promise<void>;
}

/** A non-loopback listen without a control token: bad configuration, said in one line (exit 2). */
export class ControlTokenRequiredError extends Error {
  override name = 'ControlTokenRequiredError';
}

/** Listen on the configured address (docs/design.md#authentication: no non-loopback listen without a control token). */
export async function listen(sandbox: Sandbox): Promise<RunningServer> {
  const { config } = sandbox;
  if (!isLoopback(config.host) && !config.controlToken && !config.insecureControl) {
    throw new ControlTokenRequiredError(
      `Refusing to listen on ${config.host} without a control token: set SANDBOX_CONTROL_TOKEN (or --control-token), ` +
        'or set PAYSANDBOX_INSECURE_CONTROL=1 (or --insecure-control) to expose /_sandbox to anyone who can reach ' +
        'this address (a container: docker run -e PAYSANDBOX_INSECURE_CONTROL=1 …)',
    );
  }
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: sandbox.app.fetch, port: config.port, hostname: config.host }, () =>
      resolve(s as Server),
    );
    (s as Server).once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  const port = (server.address() as AddressInfo).port;
  // The sandbox's own callbacks (the example receiver) go to the port it really got (--port 0 included).
  config.internalUrl = selfUrl(config.host, port);
  return {
    url: listeningUrl(config.host, port),
    port,
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      }),
  };
}
