import { checkoutExtension } from './checkout/checkout.extension.js';
import { callbacksExtension } from './callbacks/callbacks.extension.js';
import { controlExtension } from './control/control.extension.js';
import { ordersExtension } from './orders/orders.extension.js';
import { outletsExtension } from './outlets/outlets.extension.js';
import type { SandboxExtension } from './sandbox.js';
import { transfersExtension } from './transfers/transfers.extension.js';

/**
 * The modules that plug into the sandbox beyond the core (invoices, accounts, identity lists):
 * each contributes handlers by operationId, routes, fixture sections and background work.
 */
export const extensions: SandboxExtension[] = [controlExtension, outletsExtension, ordersExtension, transfersExtension, checkoutExtension, callbacksExtension];
