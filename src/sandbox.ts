import type { Hono, MiddlewareHandler } from 'hono';
import { defaultConfig, type AppConfig } from './config.js';
import { openDatabase, wipe, type Db } from './db/open.js';
import { defaultFixturesPath, fixturesLoaded, loadFixtures, readFixtures, type SectionLoader } from './fixtures/load.js';
import type { Fixtures } from './fixtures/fixture-types.js';
import { createApp } from './http/create-app.js';
import type { RequestLog } from './http/request-log.js';
import type { AppEnv, Handlers } from './http/operation.js';
import { createServices, type Services } from './services.js';
import { createClock, type Clock } from './shared/clock.js';
import { newId, type IdFactory } from './shared/ids.js';
import { loadSpec, type LoadedSpec } from './spec/load.js';
import { compileValidators, type SpecValidators } from './spec/validators.js';
import { extensions } from './extensions.js';

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

/** What a module adds to the sandbox: handlers, routes, fixture sections, background work. */
export interface SandboxExtension {
  handlers?: (s: Services, ctx: ExtensionContext) => Handlers;
  routes?: (app: Hono<AppEnv>, s: Services, ctx: ExtensionContext) => void;
  /** Middleware that must run before the operation routes (routes registered later never see them first). */
  middleware?: (s: Services, ctx: ExtensionContext) => MiddlewareHandler<AppEnv>;
  fixtureSections?: SectionLoader[];
  /** Start background work; return a function that stops it. */
  start?: (s: Services, ctx: ExtensionContext) => (() => Promise<void> | void) | void;
  /** Periodic work on the sandbox clock: runs every second in the background and after each clock move. */
  tick?: (s: Services, ctx: ExtensionContext) => void;
}

export interface ExtensionContext {
  sandbox: Sandbox;
  /** The fetch a test injected through `SandboxOptions.fetch`, if any (callbacks then use it as given). */
  injectedFetch?: typeof fetch;
  random: () => number;
}

export interface Sandbox {
  config: AppConfig;
  services: Services;
  app: Hono<AppEnv>;
  spec: LoadedSpec;
  validators: SpecValidators;
  handlers: Handlers;
  fixtures: Fixtures;
  /** Recent API requests (`GET /_sandbox/requests`). */
  requestLog: RequestLog;
  /** Drop all data, reload fixtures, reset the clock. */
  reset(): void;
  /** Run the work that is due on the sandbox clock now (expiry, retries, order progress). */
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
  const storedOffset = db.prepare("SELECT value FROM meta WHERE key = 'clock_offset'").get() as { value: string } | undefined;
  const setOffset = db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('clock_offset', ?)");
  const clock: Clock = createClock({
    realNowMs: opts.realNowMs,
    initialOffsetMicros: storedOffset ? Number(storedOffset.value) : 0,
    onOffsetChange: (o) => setOffset.run(String(o)),
  });
  const services = createServices({ db, clock, ids: opts.ids ?? newId, config });
  const { spec, validators } = opts.spec ?? sharedSpec();
  const fixtures = opts.fixtures ?? readFixtures(config.fixtures || defaultFixturesPath());
  const sections = extensions.flatMap((e) => e.fixtureSections ?? []);
  if (!fixturesLoaded(services)) loadFixtures(services, fixtures, sections);

  const stops: Array<() => Promise<void> | void> = [];
  const ctx = {} as ExtensionContext;
  const extraHandlers: Handlers = Object.assign({}, ...extensions.map((e) => e.handlers?.(services, ctx) ?? {}));
  const { app, handlers, requestLog } = createApp({
    services,
    spec,
    validators,
    handlers: extraHandlers,
    middleware: extensions.flatMap((e) => (e.middleware ? [e.middleware(services, ctx)] : [])),
    routes: (a) => extensions.forEach((e) => e.routes?.(a, services, ctx)),
  });

  const sandbox: Sandbox = {
    config,
    services,
    app,
    spec,
    validators,
    handlers,
    fixtures,
    requestLog,
    reset() {
      services.writeBatch.flush();
      services.identities.forgetCached();
      wipe(db);
      clock.setOffsetMicros(0);
      loadFixtures(services, fixtures, sections);
    },
    tick() {
      services.invoices.expireDue();
      for (const e of extensions) e.tick?.(services, ctx);
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
      for (const e of extensions) {
        const stop = e.start?.(services, ctx);
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
  Object.assign(ctx, { sandbox, injectedFetch: opts.fetch, random: opts.random ?? Math.random });
  return sandbox;
}
