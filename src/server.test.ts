import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFrom } from './config-flags.js';
import { listeningUrl } from './config.js';
import { packageRoot } from './spec/load.js';

describe('the URL the server prints and links with', () => {
  it('is localhost for a wildcard listen (Docker: -p 7070:7070 reaches localhost, never 0.0.0.0)', () => {
    expect(listeningUrl('0.0.0.0', 7070)).toBe('http://localhost:7070');
    expect(listeningUrl('::', 8080)).toBe('http://localhost:8080');
    expect(listeningUrl('[::]', 8080)).toBe('http://localhost:8080');
    expect(listeningUrl('', 7070)).toBe('http://localhost:7070');
  });

  it('is what payment_url uses when the server listens on every address without --public-url', () => {
    expect(configFrom({ host: '0.0.0.0', port: '7070' }, {}).publicUrl).toBe(
      'http://localhost:7070',
    );
    expect(configFrom({}, { PAYSANDBOX_HOST: '0.0.0.0', PAYSANDBOX_PORT: '8080' }).publicUrl).toBe(
      'http://localhost:8080',
    );
    expect(
      configFrom({ host: '0.0.0.0', 'public-url': 'https://pay.example.test/' }, {}).publicUrl,
    ).toBe('https://pay.example.test');
  });

  it('is the address itself otherwise, IPv6 in brackets', () => {
    expect(listeningUrl('127.0.0.1', 7070)).toBe('http://127.0.0.1:7070');
    expect(listeningUrl('::1', 7070)).toBe('http://[::1]:7070');
    expect(listeningUrl('192.168.1.20', 9000)).toBe('http://192.168.1.20:9000');
    expect(listeningUrl('sandbox.local', 7070)).toBe('http://sandbox.local:7070');
  });
});

describe('the Docker image', () => {
  const root = packageRoot();
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');

  /** The HEALTHCHECK's exec-form command, e.g. ["node", "-e", "…"]. */
  function healthcheck(): string[] {
    const m = /HEALTHCHECK[^\n]*\\\n\s*CMD (\[.*\])/.exec(dockerfile);
    expect(m, 'a HEALTHCHECK with an exec-form CMD').not.toBeNull();
    return JSON.parse(m![1]!) as string[];
  }

  function run(cmd: string[], env: Record<string, string>): Promise<number | null> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, cmd.slice(1), {
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: 'ignore',
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  it('health check asks the port the server listens on (PAYSANDBOX_PORT), and fails when nothing answers', async () => {
    const cmd = healthcheck();
    expect(cmd[0]).toBe('node');
    expect(dockerfile).toMatch(/PAYSANDBOX_PORT=7070/);
    const server = createServer((req, res) => {
      res
        .writeHead(req.url === '/healthz' ? 200 : 404, { 'content-type': 'application/json' })
        .end('{"status":"ok"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      expect(await run(cmd, { PAYSANDBOX_PORT: String(port) })).toBe(0);
    } finally {
      await new Promise((r) => server.close(r));
    }
    expect(await run(cmd, { PAYSANDBOX_PORT: String(port) })).toBe(1);
  });

  it('leaves dependencies, git, local databases, build output and reports out of the build context', () => {
    const ignored = readFileSync(join(root, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of [
      'node_modules',
      '.git',
      '.paysandbox',
      'dist',
      'test-artifacts',
      'contract-tests/reports',
    ])
      expect(ignored).toContain(entry);
    // …but not what the build stage copies.
    for (const copied of [...dockerfile.matchAll(/^COPY (?!--from)(.+) \.\/?\S*$/gm)].flatMap((m) =>
      m[1]!.split(/\s+/),
    ))
      expect(ignored).not.toContain(copied);
  });
});
