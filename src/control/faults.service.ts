import { ApiError } from '../shared/api-error.js';
import { editDistance } from '../shared/edit-distance.js';
import type { IdFactory } from '../shared/ids.js';
import type { Schemas } from '../spec/operations.generated.js';
import { matchesSomePath, nearestPaths, spellingProblem } from './faults.paths.js';
import { compilePathGlob, globProblem, trimSlash, type PathGlob } from './path-glob.js';

/**
 * `FaultInput` of the document, as generated from it: `status` absent is a latency-only fault (the
 * request is delayed, then answered normally); `count` absent is unlimited.
 */
export type FaultInput = Schemas['FaultInput'];

/** The last request a fault answered: when (sandbox clock), its method and path as sent. */
export interface FaultLastHit {
  at: string;
  method: string;
  path: string;
}

/**
 * A fault as stored: its method filled in (`*` for any), `count` the injections left; once they are
 * used up it stays listed, `exhausted`, with its hits, until removed.
 */
export type Fault = Schemas['Fault'];

/** The fields of `FaultInput`: any other is refused, by name. */
const FAULT_FIELDS = ['method', 'path', 'status', 'body', 'latency_ms', 'count', 'probability'];
/** The methods a fault takes (`*`: any). */
const FAULT_METHODS = ['*', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Statuses whose response has no body. */
const NO_BODY_STATUSES = new Set([204, 205, 304]);

export interface FaultStoreOptions {
  /** The sandbox clock's now, as a timestamp (for `last_hit.at`). */
  now: () => string;
  /**
   * The routes the sandbox serves (`GET /v3/invoices/:invoice_id`); a glob that matches none of them
   * is refused with the nearest, and a method that none of the routes it matches answers is refused.
   * Absent: no check.
   */
  servedRoutes?: () => readonly ServedRoute[];
}

/** One route of the app: its method and its template (`/v3/invoices/:invoice_id`). */
export interface ServedRoute {
  method: string;
  path: string;
}

export interface FaultHit {
  fault: Fault;
  latencyMs: number;
  /** Undefined when the fault only adds latency. */
  status?: number;
  body?: unknown;
}

/** The error of a fault that names no body: `injected_fault`, at the status the fault names. */
export const INJECTED_FAULT = ApiError.general('injected_fault', 'Injected fault.');

/** Paths never touched by faults: the control API itself and the documents a client needs to start. */
const EXEMPT = /^\/(_sandbox(\/|$)|openapi\.(json|yaml)$|docs(\/|$))/;
/**
 * The readiness check (the image's HEALTHCHECK, CI waits): faulted only by a fault that names it
 * (`/healthz`), never by a wildcard (`/**`) meant for the API.
 */
const HEALTH = '/healthz';

/**
 * A path glob: `*` matches within one segment, `**` as a segment zero or more segments; trailing slashes
 * are optional, like the routes themselves. Linear-time matching (src/control/path-glob.ts).
 */
export function compileGlob(glob: string): PathGlob {
  return compilePathGlob(glob);
}

/**
 * Injected faults, kept in memory for the life of the process (docs/design.md#control-api). `random` decides
 * `probability` (tests inject a fixed source).
 */
export function createFaultStore(ids: IdFactory, random: () => number, o: FaultStoreOptions) {
  const faults = new Map<string, { fault: Fault; pattern: PathGlob; wildcard: boolean }>();
  let served: ServedRoute[] | undefined;
  /** The served routes a fault can touch (computed once: the routes do not change after start). */
  const servedRoutes = () =>
    (served ??= (o.servedRoutes?.() ?? []).filter((r) => !EXEMPT.test(trimSlash(r.path))));
  const pathsOf = (routes: readonly ServedRoute[]) => [...new Set(routes.map((r) => r.path))];

  /** A glob and method no served route can match: a 400 naming what would match instead. */
  function checkServed(glob: string, pattern: PathGlob, method: string): void {
    const all = pathsOf(servedRoutes());
    if (!matchesSomePath(pattern.nodes, all)) {
      const nearest = nearestPaths(glob, all)
        .map((p) => `\`${p}\``)
        .join(', ');
      throw ApiError.field(
        'path',
        `This glob matches no path the sandbox serves (the control API and /docs are never faulted). Nearest: ${nearest}.`,
      );
    }
    if (method === '*') return;
    const reached = servedRoutes().filter((r) => matchesSomePath(pattern.nodes, [r.path]));
    if (reached.some((r) => r.method === method)) return;
    const methods = [...new Set(reached.map((r) => r.method))].sort().join(', ');
    throw ApiError.field(
      'method',
      `No operation the sandbox serves answers ${method} on a path this glob matches (they answer ${methods}); a fault for ${method} there would never fire.`,
    );
  }

  return {
    list: (): Fault[] => [...faults.values()].map((f) => ({ ...f.fault })),

    /** Status defaults to 500, except for a fault that asks only for latency. */
    add(input: FaultInput): Fault {
      for (const field of Object.keys(input)) {
        if (FAULT_FIELDS.includes(field)) continue;
        const near = FAULT_FIELDS.find((f) => editDistance(f, field) <= 2 || f.startsWith(field));
        throw ApiError.field(
          field,
          `Unknown field.${near ? ` Did you mean \`${near}\`?` : ''} A fault takes ${FAULT_FIELDS.join(', ')}.`,
        );
      }
      if (input.method !== undefined && !FAULT_METHODS.includes(input.method))
        throw ApiError.field(
          'method',
          `"${input.method}" is not a method a fault takes: one of ${FAULT_METHODS.join(', ')} (upper case).`,
        );
      if (
        input.body !== undefined &&
        input.status !== undefined &&
        NO_BODY_STATUSES.has(input.status)
      )
        throw ApiError.field(
          'body',
          `A ${input.status} response has no body: remove \`body\` or choose another status.`,
        );
      const tooComplex = globProblem(input.path);
      if (tooComplex) throw ApiError.field('path', tooComplex);
      const misspelt = spellingProblem(input.path);
      if (misspelt) throw ApiError.field('path', misspelt);
      const pattern = compileGlob(input.path);
      if (o.servedRoutes) checkServed(input.path, pattern, input.method ?? '*');
      const latencyOnly =
        input.status === undefined && input.body === undefined && input.latency_ms !== undefined;
      const fault: Fault = {
        id: ids(),
        method: input.method ?? '*',
        path: input.path,
        state: 'active',
        hits: 0,
        last_hit: null,
      };
      if (!latencyOnly) fault.status = input.status ?? 500;
      if (input.body !== undefined) fault.body = input.body;
      if (input.latency_ms !== undefined) fault.latency_ms = input.latency_ms;
      if (input.count !== undefined) fault.count = input.count;
      if (input.probability !== undefined) fault.probability = input.probability;
      faults.set(fault.id, { fault, pattern, wildcard: input.path.includes('*') });
      return { ...fault };
    },

    clear: () => faults.clear(),

    /** Remove one fault (used up or not); an unknown id is a 404. */
    remove(id: string): void {
      if (!faults.delete(id)) throw ApiError.notFound();
    },

    /**
     * The first fault that fires for this request, counted at once (before any latency) so that
     * concurrent requests never take more injections than `count` allows. An exhausted fault stays
     * listed (with its hits) and fires no more.
     */
    take(method: string, path: string, asSent = path): FaultHit | undefined {
      const clean = trimSlash(path);
      if (EXEMPT.test(clean)) return undefined;
      for (const { fault, pattern, wildcard } of faults.values()) {
        if (fault.state === 'exhausted') continue;
        if (wildcard && clean === HEALTH) continue;
        if (fault.method !== '*' && fault.method !== method.toUpperCase()) continue;
        if (!pattern.test(clean)) continue;
        if (fault.probability !== undefined && !(random() < fault.probability)) continue;
        fault.hits += 1;
        fault.last_hit = { at: o.now(), method: method.toUpperCase(), path: asSent };
        if (fault.count !== undefined) {
          fault.count -= 1;
          if (fault.count === 0) fault.state = 'exhausted';
        }
        return {
          fault: { ...fault },
          latencyMs: fault.latency_ms ?? 0,
          status: fault.status,
          body: fault.body,
        };
      }
      return undefined;
    },
  };
}

export type FaultStore = ReturnType<typeof createFaultStore>;
