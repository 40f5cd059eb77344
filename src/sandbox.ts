import type { Hono } from 'hono';
import { defaultConfig, type AppConfig } from './config.js';
import { openDatabase, wipe, type Db } from './db/open.js';
import {
  defaultFixturesPath,
  fixturesLoaded,
  loadFixtures,
  readFixtures,
} from './fixtures/load.js';
import type { Fixtures } from './fixtures/fixture-types.js';
import { createApp } from './http/create-app.js';
import { createRequestLog, type RequestLog } from './http/request-log.js';
import type { AppEnv, Handlers } from './http/operation.js';
import type { Services } from './services.js';
import { createTenantClocks, tenantAwareClock } from './clock/tenant-clocks.js';
import { createClock, type Clock } from './shared/clock.js';
import { newId, type IdFactory } from './shared/ids.js';
import { loadSpec, type LoadedSpec } from './spec/load.js';
import { compileValidators, type SpecValidators } from './spec/validators.js';
import { createModules, moduleList, type Modules } from './modules.js';

export interface SandboxOptions {
  config?: Partial<AppConfig>;
  db?: Db;
  ids?: IdFactory;
  realNowMs?: () => number;
  spec?: { spec: LoadedSpec; validators: SpecValidators };
  fixtures?: Fixtures;
  /** Outbound HTTP for callbacks, injected by tests; without it callbacks go out over node:http. */
  fetch?: typeof fetch;
  /** Randomness for sandbox behaviour such as fault probability (tests inject a fixed source). */
  random?: () => number;
}

export interface Sandbox {
  config: AppConfig;
  /** The shared infrastructure (src/services.ts). */
  services: Services;
  /** The feature modules (src/modules.ts), each with its `api`. */
  modules: Modules;
  app: Hono<AppEnv>;
  spec: LoadedSpec;
  validators: SpecValidators;
  handlers: Handlers;
  fixtures: Fixtures;
  /** Recent API requests (`GET /_sandbox/requests`). */
  requestLog: RequestLog;
  /** Drop all data, reload fixtures, reset the clock. */
  reset(): void;
  /**
   * Run the work that is due now, each row on its tenant's clock (expiry, settlements, order progress,
   * callback retries): every job of the due-work registry (src/clock/due-work.ts).
   */
  tick(): void;
  /** Start background work (a tick every second, callback dispatch). */
  startBackground(): void;
  close(): Promise<void>;
}

let cachedSpec: { spec: LoadedSpec; validators: SpecValidators } | undefined;
/** Load and compile the document once per process (tests build many apps). */
export function sharedSpec(): { spec: LoadedSpec; validators: SpecValidators } {
  if (!cachedSpec) {
    const spec = loadSpec();
    cachedSpec = { spec, validators: compileValidators(spec) };
  }
  return cachedSpec;
}

export function createSandbox(opts: SandboxOptions = {}): Sandbox {
  const config = defaultConfig(opts.config);
  const db = opts.db ?? openDatabase(config.db, { durability: config.durability });
  const storedOffset = db.prepare("SELECT value FROM meta WHERE key = 'clock_offset'").get() as
    { value: string } | undefined;
  const setOffset = db.prepare(
    "INSERT OR REPLACE INTO meta (key, value) VALUES ('clock_offset', ?)",
  );
  const sandboxClock: Clock = createClock({
    realNowMs: opts.realNowMs,
    initialOffsetMicros: storedOffset ? Number(storedOffset.value) : 0,
    onOffsetChange: (o) => setOffset.run(String(o)),
  });
  // Every module reads the current tenant's time: the sandbox clock plus its workspace's offset.
  const tenants = createTenantClocks(db, sandboxClock);
  const clock = tenantAwareClock(tenants);
  const { spec, validators } = opts.spec ?? sharedSpec();
  const fixtures = opts.fixtures ?? readFixtures(config.fixtures || defaultFixturesPath());
  const requestLog = createRequestLog();
  const { services, modules } = createModules(
    { db, clock, tenants, ids: opts.ids ?? newId, config },
    {
      requestLog,
      // Called only once the sandbox below exists (a request or the background runs them).
      sandbox: { tick: () => sandbox.tick(), reset: () => sandbox.reset() },
      injectedFetch: opts.fetch,
      random: opts.random ?? Math.random,
      // Asked for only once a fault is added, after the app below exists.
      servedRoutes: () =>
        app.routes
          .filter((r) => r.method !== 'ALL')
          .map((r) => ({ method: r.method, path: r.path })),
    },
  );
  const list = moduleList(modules);
  const sections = list.flatMap((m) => m.fixtureSections ?? []);
  // The fixture loader creates merchants and funds their accounts: it uses those two modules' apis.
  const fixtureDeps = {
    ...services,
    identities: modules.identities.api,
    ledger: modules.ledger.api,
  };
  if (!fixturesLoaded(services)) loadFixtures(fixtureDeps, fixtures, sections);

  const stops: Array<() => Promise<void> | void> = [];
  const { app, handlers } = createApp({
    services,
    identities: modules.identities.api,
    spec,
    validators,
    requestLog,
    handlers: Object.assign({}, ...list.map((m) => m.handlers ?? {})),
    middleware: list.flatMap((m) => (m.middleware ? [m.middleware] : [])),
    routes: (a) => list.forEach((m) => m.routes?.(a)),
  });

  const sandbox: Sandbox = {
    config,
    services,
    modules,
    app,
    spec,
    validators,
    handlers,
    fixtures,
    requestLog,
    reset() {
      services.writeBatch.flush();
      modules.identities.api.forgetCached();
      wipe(db);
      clock.setOffsetMicros(0);
      tenants.reload();
      services.dueWork.invalidate();
      loadFixtures(fixtureDeps, fixtures, sections);
    },
    tick() {
      services.dueWork.runAll();
    },
    startBackground() {
      const timer = setInterval(() => {
        try {
          sandbox.tick();
        } catch (err) {
          console.error('[paysandbox] background tick failed:', err);
        }
      }, 1000);
      timer.unref();
      stops.push(() => clearInterval(timer));
      for (const m of list) {
        const stop = m.start?.();
        if (stop) stops.push(stop);
      }
    },
    async close() {
      for (const stop of stops.splice(0).reverse()) await stop();
      if (db.open) {
        services.writeBatch.flush();
        db.close();
      }
    },
  };
  return sandbox;
}
