import type { SandboxExtension } from '../sandbox.js';
import type { Services } from '../services.js';
import { createOutletRepository } from './outlets.repo.js';
import { outletHandlers } from './outlets.routes.js';
import { createOutletService, type OutletService } from './outlets.service.js';

// One outlet service per sandbox (its statements are prepared once against that sandbox's database).
const built = new WeakMap<Services, OutletService>();

/** The outlet service of a sandbox; other modules (sell orders) get fee quotes through it. */
export function outletsOf(s: Services): OutletService {
  let service = built.get(s);
  if (!service) {
    service = createOutletService(createOutletRepository(s.db));
    built.set(s, service);
  }
  return service;
}

export const outletsExtension: SandboxExtension = {
  handlers: (s) => outletHandlers(outletsOf(s)),
};
