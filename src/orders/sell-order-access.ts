import type { Context } from 'hono';
import type { AppEnv } from '../http/operation.js';
import { rawPath } from '../http/request-url.js';
import type { App } from '../identities/identities.api.js';
import { ApiError, BusinessAccountError } from '../shared/api-error.js';

/**
 * Two refusals of the real service's sell-order API that public clients met (docs/fidelity.md, sell
 * orders), checked after authentication and before anything is read or written:
 * - HMAC access to sell orders is for business accounts ("the api is for business account only. OAuth
 *   authentication method works"): an app whose owner is not one gets 404 on create and the recorded 401
 *   `{"message": "Unauthorized", "status": 401, "success": false}` on a read; OAuth2 is not refused;
 * - `GET /api/v2/sellorder/<id>/` with the trailing slash answered 404 (which is why the npm client
 *   strips it): the v2 retrieve answers only without it.
 */
export function checkSellOrderAccess(
  app: App,
  c: Context<AppEnv>,
  call: 'create' | 'read' | 'retrieve-v2',
): void {
  if (app.business_account !== 1 && c.get('authOutcome').startsWith('hmac:')) {
    if (call !== 'create') throw new BusinessAccountError();
    throw new ApiError(
      'not_found',
      { non_field_errors: ['Not found.'] },
      {
        hint: 'HMAC access to sell orders needs a business account (business_account of the app); OAuth2 works without one.',
      },
    );
  }
  if (call === 'retrieve-v2' && rawPath(c).endsWith('/')) {
    throw new ApiError(
      'not_found',
      { non_field_errors: ['Not found.'] },
      {
        hint: 'The real service answers 404 to GET /api/v2/sellorder/<id>/ with the trailing slash: send /api/v2/sellorder/<id>.',
      },
    );
  }
}
