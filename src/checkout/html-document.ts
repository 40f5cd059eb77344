import { Fragment, jsx } from 'hono/jsx/jsx-runtime';

/**
 * A hosted page's element as an HTML document (`<!doctype html>` and the markup).
 *
 * Hono renders JSX inside a "render context" that it keeps in an AsyncLocalStorage when the runtime has
 * one (so that `useContext` works after an async component's await), and the first AsyncLocalStorage
 * run turns on Node's promise hooks for every later promise of the process: after one hosted page, each
 * API request would pay them (about a fifth of a signed GET's CPU, docs/benchmarks.md). These pages
 * have no async components, so before the first page Hono's one-time look-up of AsyncLocalStorage is
 * made to find none: it then keeps the render context in a variable for the synchronous render, as it
 * does on runtimes without one. Should a Hono version look it up differently, pages render the same
 * and only the hooks come back.
 */
export function htmlDocument(element: unknown): string {
  if (!lookedUp) lookUpWithoutAsyncLocalStorage();
  return '<!doctype html>' + String(element);
}

let lookedUp = false;
function lookUpWithoutAsyncLocalStorage(): void {
  lookedUp = true;
  const host = process as { getBuiltinModule?: unknown };
  const own = Object.prototype.hasOwnProperty.call(host, 'getBuiltinModule');
  const lookup = host.getBuiltinModule;
  try {
    host.getBuiltinModule = undefined;
  } catch {
    return; // not writable here: Hono finds AsyncLocalStorage, pages render the same
  }
  try {
    String(jsx(Fragment, {})); // Hono's look-up happens on its first render, once
  } finally {
    if (own) host.getBuiltinModule = lookup;
    else delete host.getBuiltinModule;
  }
}
