import { ApiError } from '../shared/api-error.js';
import type { IdFactory } from '../shared/ids.js';
import type { Schemas } from '../spec/operations.generated.js';
import { compilePathGlob, globProblem, type PathGlob } from './path-glob.js';

/**
 * `FaultInput` of the document, as generated from it: `status` absent is a latency-only fault (the
 * request is delayed, then answered normally); `count` absent is unlimited.
 */
export type FaultInput = Schemas['FaultInput'];

/** A fault as stored: its method filled in (`*` for any), `count` the injections left. */
export interface Fault extends FaultInput {
  id: string;
  method: string;
  hits: number;
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

const trimSlash = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);

/**
 * A path glob: `*` matches within one segment, `**` across segments. Trailing slashes are ignored on
 * both sides, like the routes themselves. Linear-time matching (src/control/path-glob.ts).
 */
export function compileGlob(glob: string): PathGlob {
  return compilePathGlob(trimSlash(glob));
}

/**
 * Injected faults, kept in memory for the life of the process (docs/design.md#control-api). `random` decides
 * `probability` (tests inject a fixed source).
 */
export function createFaultStore(ids: IdFactory, random: () => number) {
  const faults = new Map<string, { fault: Fault; pattern: PathGlob }>();

  return {
    list: (): Fault[] => [...faults.values()].map((f) => ({ ...f.fault })),

    /** Status defaults to 500, except for a fault that asks only for latency. */
    add(input: FaultInput): Fault {
      const tooComplex = globProblem(input.path);
      if (tooComplex) throw ApiError.field('path', tooComplex);
      const latencyOnly = input.status === undefined && input.body === undefined && input.latency_ms !== undefined;
      const fault: Fault = { id: ids(), method: input.method ?? '*', path: input.path, hits: 0 };
      if (!latencyOnly) fault.status = input.status ?? 500;
      if (input.body !== undefined) fault.body = input.body;
      if (input.latency_ms !== undefined) fault.latency_ms = input.latency_ms;
      if (input.count !== undefined) fault.count = input.count;
      if (input.probability !== undefined) fault.probability = input.probability;
      faults.set(fault.id, { fault, pattern: compileGlob(input.path) });
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
    take(method: string, path: string): FaultHit | undefined {
      const clean = trimSlash(path);
      if (EXEMPT.test(clean)) return undefined;
      for (const { fault, pattern } of faults.values()) {
        if (fault.method !== '*' && fault.method !== method.toUpperCase()) continue;
        if (!pattern.test(clean)) continue;
        if (fault.probability !== undefined && !(random() < fault.probability)) continue;
        fault.hits += 1;
        if (fault.count !== undefined) {
          fault.count -= 1;
          if (fault.count === 0) faults.delete(fault.id);
        }
        return { fault: { ...fault }, latencyMs: fault.latency_ms ?? 0, status: fault.status, body: fault.body };
      }
      return undefined;
    },
  };
}

export type FaultStore = ReturnType<typeof createFaultStore>;
