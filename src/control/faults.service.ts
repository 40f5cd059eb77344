import { ApiError } from '../shared/api-error.js';
import type { IdFactory } from '../shared/ids.js';
import type { Schemas } from '../spec/operations.generated.js';
import { matchesSomePath, nearestPaths } from './faults.paths.js';
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

/** A fault as stored: its method filled in (`*` for any), `count` the injections left. */
export interface Fault extends FaultInput {
  id: string;
  method: string;
  hits: number;
  last_hit: FaultLastHit | null;
}

export interface FaultStoreOptions {
  /** The sandbox clock's now, as a timestamp (for `last_hit.at`). */
  now: () => string;
  /**
   * The route templates the sandbox serves (`/v3/invoices/:invoice_id`); a glob that matches none of
   * them is refused with the nearest. Absent: no check.
   */
  servedPaths?: () => readonly string[];
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
  const faults = new Map<string, { fault: Fault; pattern: PathGlob }>();
  let served: string[] | undefined;
  /** The served paths a fault can touch (computed once: the routes do not change after start). */
  const servedPaths = () =>
    (served ??= [...new Set((o.servedPaths?.() ?? []).filter((p) => !EXEMPT.test(trimSlash(p))))]);

  return {
    list: (): Fault[] => [...faults.values()].map((f) => ({ ...f.fault })),

    /** Status defaults to 500, except for a fault that asks only for latency. */
    add(input: FaultInput): Fault {
      const tooComplex = globProblem(input.path);
      if (tooComplex) throw ApiError.field('path', tooComplex);
      const pattern = compileGlob(input.path);
      if (o.servedPaths && !matchesSomePath(pattern.nodes, servedPaths())) {
        const nearest = nearestPaths(input.path, servedPaths())
          .map((p) => `\`${p}\``)
          .join(', ');
        throw ApiError.field(
          'path',
          `This glob matches no path the sandbox serves (the control API and /docs are never faulted). Nearest: ${nearest}.`,
        );
      }
      const latencyOnly =
        input.status === undefined && input.body === undefined && input.latency_ms !== undefined;
      const fault: Fault = {
        id: ids(),
        method: input.method ?? '*',
        path: input.path,
        hits: 0,
        last_hit: null,
      };
      if (!latencyOnly) fault.status = input.status ?? 500;
      if (input.body !== undefined) fault.body = input.body;
      if (input.latency_ms !== undefined) fault.latency_ms = input.latency_ms;
      if (input.count !== undefined) fault.count = input.count;
      if (input.probability !== undefined) fault.probability = input.probability;
      faults.set(fault.id, { fault, pattern });
      return { ...fault };
    },

    clear: () => faults.clear(),

    /** Remove one fault; an unknown id (or one already used up) is a 404. */
    remove(id: string): void {
      if (!faults.delete(id)) throw ApiError.notFound();
    },

    /**
     * The first fault that fires for this request, counted at once (before any latency) so that
     * concurrent requests never take more injections than `count` allows. An exhausted fault is removed.
     */
    take(method: string, path: string, asSent = path): FaultHit | undefined {
      const clean = trimSlash(path);
      if (EXEMPT.test(clean)) return undefined;
      for (const { fault, pattern } of faults.values()) {
        if (fault.method !== '*' && fault.method !== method.toUpperCase()) continue;
        if (!pattern.test(clean)) continue;
        if (fault.probability !== undefined && !(random() < fault.probability)) continue;
        fault.hits += 1;
        fault.last_hit = { at: o.now(), method: method.toUpperCase(), path: asSent };
        if (fault.count !== undefined) {
          fault.count -= 1;
          if (fault.count === 0) faults.delete(fault.id);
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
