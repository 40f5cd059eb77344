import { afterEach, describe, expect, it } from 'vitest';
import { parseYamlDocument } from '../spec/load.js';
import { spawnServer, type SpawnedServer } from '../testing/spawn-server.js';

// The started server (a child process): which URL its document names. The in-process half is docs.routes.test.ts.

/** What `GET /openapi.json`, `/openapi.yaml` and the /docs page (which loads the JSON) call "Try it out" on. */
async function servedServers(base: string) {
  const json = (await (await fetch(`${base}/openapi.json`)).json()) as {
    servers: Array<{ url: string }>;
  };
  const yaml = parseYamlDocument(await (await fetch(`${base}/openapi.yaml`)).text());
  const docs = await (await fetch(`${base}/docs`)).text();
  return { json: json.servers, yaml: yaml.servers, docsLoads: /url: '([^']+)'/.exec(docs)?.[1] };
}

let server: SpawnedServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('the served document names the sandbox it comes from', () => {
  it('started on port 0: servers[0].url is the URL it actually listens on, in the JSON, the YAML and what /docs loads', async () => {
    server = await spawnServer(['--db', ':memory:', '--quiet']);
    expect(server.url).not.toMatch(/:7070$/);
    const s = await servedServers(server.url);
    expect(s.json).toEqual([{ url: server.url, description: 'This sandbox' }]);
    expect(s.yaml).toEqual(s.json);
    expect(s.docsLoads).toBe('/openapi.json?examples=unique');
  });

  it('with --public-url: that URL, whatever port it listens on', async () => {
    server = await spawnServer([
      '--db',
      ':memory:',
      '--quiet',
      '--public-url',
      'https://pay.example.test/sandbox/',
    ]);
    const s = await servedServers(server.url);
    expect(s.json).toEqual([
      { url: 'https://pay.example.test/sandbox', description: 'This sandbox' },
    ]);
    expect(s.yaml).toEqual(s.json);
  });
});
