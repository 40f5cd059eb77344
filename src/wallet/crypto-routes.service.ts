import { ApiError } from '../shared/api-error.js';
import type { App } from '../identities/identities.api.js';
import type { Clock } from '../shared/clock.js';
import type { IdFactory } from '../shared/ids.js';
import type { CryptoRouteRepository } from './wallet.repo.js';
import { cryptoRouteResource } from './wallet.view.js';

/**
 * A developer's crypto routes (docs/fidelity.md), as the 2015 docs show them: a monitored address and the
 * stock address its coins go to, answered bare (no envelope key). The sandbox keeps and lists them; no chain
 * watches the monitored address, so nothing moves.
 */
export function createCryptoRouteService(d: {
  routes: CryptoRouteRepository;
  clock: Clock;
  ids: IdFactory;
}) {
  return {
    create(app: App, body: { monitored_address: string; stock_address: string }) {
      const monitored = body.monitored_address.trim();
      const stock = body.stock_address.trim();
      if (!monitored) throw ApiError.field('monitored_address', 'This field may not be blank.');
      if (!stock) throw ApiError.field('stock_address', 'This field may not be blank.');
      if (monitored === stock)
        throw ApiError.field('stock_address', 'Must differ from monitored_address.');
      if (d.routes.monitoredTaken(app.owner_id, monitored))
        throw ApiError.field('monitored_address', 'A route for this address already exists.');
      const row = {
        id: d.ids(),
        owner_id: app.owner_id,
        monitored_address: monitored,
        stock_address: stock,
        created_at: d.clock.now(),
      };
      d.routes.insert(row);
      return cryptoRouteResource(row);
    },
    /** Removes one of the owner's routes and answers it as it was; another owner's or an unknown id is 404. */
    remove(ownerId: string, id: string) {
      const row = d.routes.forOwner(id, ownerId);
      if (!row) throw ApiError.notFound();
      d.routes.remove(id);
      return cryptoRouteResource(row);
    },
    list: (ownerId: string) => d.routes.ofOwner(ownerId).map(cryptoRouteResource),
  };
}

export type CryptoRouteService = ReturnType<typeof createCryptoRouteService>;
