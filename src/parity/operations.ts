import type { LoadedSpec, Operation } from '../spec/load.js';
import { pathsOf } from '../http/create-app.js';
import type { DiffKind } from './compare.js';

/** One accepted difference of an operation: `x-fidelity.deviations` in openapi/openapi.yaml. */
export interface Deviation {
  path: string;
  kind: DiffKind;
  reason: string;
  /** The recorded entries it explains (`sellorders.har#1`); every entry of the operation when absent. */
  entries?: string[];
}

export interface OperationMatcher {
  /** The document's operation a request reaches (legacy prefixes and the trailing slash included). */
  match(method: string, pathname: string): Operation | undefined;
  deviations(operationId: string): Deviation[];
}

const KINDS: DiffKind[] = ['status', 'missing', 'extra', 'type', 'format', 'enum'];

/** Match recorded requests to operations, and read each operation's accepted deviations. */
export function operationMatcher(spec: LoadedSpec): OperationMatcher {
  const routes = spec.operations.flatMap((op) =>
    pathsOf(op).map((p) => {
      const params = (p.match(/:/g) ?? []).length;
      const rx = new RegExp(
        `^${p.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`,
      );
      return { op, rx, params };
    }),
  );
  // Literal paths before templated ones (`/v3/invoices/summary` before `/v3/invoices/{id}`).
  routes.sort((a, b) => a.params - b.params);
  const byId = new Map<string, Deviation[]>();
  for (const [path, item] of Object.entries(spec.document.paths ?? {})) {
    for (const [method, op] of Object.entries(
      item as Record<string, { operationId?: string; 'x-fidelity'?: unknown }>,
    )) {
      if (!op?.operationId) continue;
      byId.set(op.operationId, readDeviations(op['x-fidelity'], `${method.toUpperCase()} ${path}`));
    }
  }
  return {
    match(method, pathname) {
      const m = method.toLowerCase();
      return routes.find((r) => r.op.method === m && r.rx.test(pathname))?.op;
    },
    deviations: (id) => byId.get(id) ?? [],
  };
}

/**
 * `x-fidelity: { deviations: [{ path, kind, reason, entries? }] }`; anything else there is refused loudly.
 * `entries` narrows a deviation to the recorded entries it is about (a refused status, say, that must not
 * also excuse another entry of the same operation).
 */
export function readDeviations(xf: unknown, where: string): Deviation[] {
  if (xf === undefined) return [];
  const list = (xf as { deviations?: unknown }).deviations;
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new Error(`${where}: x-fidelity.deviations must be a list`);
  return list.map((d: Partial<Deviation>, i) => {
    if (
      typeof d?.path !== 'string' ||
      !KINDS.includes(d.kind as DiffKind) ||
      typeof d.reason !== 'string' ||
      !d.reason.trim() ||
      (d.entries !== undefined &&
        (!Array.isArray(d.entries) ||
          d.entries.length === 0 ||
          !d.entries.every((e) => typeof e === 'string' && /^[\w.-]+\.har#\d+$/.test(e))))
    ) {
      throw new Error(
        `${where}: x-fidelity.deviations[${i}] needs path, kind (${KINDS.join('|')}) and a reason (entries, if any, a list like ["sellorders.har#1"])`,
      );
    }
    return {
      path: d.path,
      kind: d.kind as DiffKind,
      reason: d.reason,
      ...(d.entries ? { entries: d.entries } : {}),
    };
  });
}
