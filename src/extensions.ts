import type { SandboxExtension } from './sandbox.js';

/**
 * The modules that plug into the sandbox beyond the core (invoices, accounts, identity lists):
 * each contributes handlers by operationId, routes, fixture sections and background work.
 */
export const extensions: SandboxExtension[] = [];
