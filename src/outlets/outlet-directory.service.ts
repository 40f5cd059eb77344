import { ApiError } from '../shared/api-error.js';
import { pageMeta, pageRequest } from '../shared/pagination.js';
import { FIELD_RULES, OUTLET_CATEGORIES, categoryOf } from './outlets.catalog.js';
import type { OutletRepository } from './outlets.repo.js';
import type { OutletService } from './outlets.service.js';
import { REGION, categoryResource, payinFeeResource, payinOutletResource } from './outlets.view.js';

type PageQuery = { page?: number; per_page?: number };

/** One page of an in-memory list (outlet lists are a handful of rows). */
function paged<T>(query: PageQuery, items: T[]) {
  const req = pageRequest(query);
  return {
    items: items.slice(req.offset, req.offset + req.limit),
    meta: pageMeta(req, items.length),
  };
}

/** `is_enabled` as clients send it: 1/0 or true/false in any case. */
const truthy = (v: string) => v === '1' || v.toLowerCase() === 'true';

/**
 * The outlet directory besides the payout list: categories, pay-in outlets and their fees, and field
 * validation (docs/fidelity.md, "Outlets"). Reads only; nothing here moves money.
 */
export function createOutletDirectory(repo: OutletRepository, outlets: OutletService) {
  function categories(kind: 'payin' | 'payout') {
    const members =
      kind === 'payout'
        ? repo.allPayoutOutlets().map((o) => ({ id: o.id, name: o.name, category: o.category }))
        : repo
            .payinOutlets()
            .map((o) => ({ id: o.collector, name: o.name, category: 'nonbank-otc' }));
    return OUTLET_CATEGORIES.filter((c) => c.kind === kind).map((c) =>
      categoryResource(
        c,
        members.filter((m) => m.category === c.id),
      ),
    );
  }

  return {
    payoutCategories: (query: PageQuery) => paged(query, categories('payout')),
    payinCategories: (query: PageQuery) => paged(query, categories('payin')),
    payinOutlets(query: PageQuery & { region?: string; is_enabled?: string }) {
      const all = repo.payinOutlets();
      // Every sandbox outlet is in the Philippines and enabled; the filters still select as they would.
      const regionOk = query.region === undefined || query.region.toUpperCase() === REGION;
      const enabledOk = query.is_enabled === undefined || truthy(query.is_enabled);
      return paged(query, regionOk && enabledOk ? all.map((o) => payinOutletResource(o, all)) : []);
    },
    payinFees(query: PageQuery & { outlet_id?: string }) {
      const rows = repo
        .payinOutlets()
        .filter((o) => query.outlet_id === undefined || o.collector === query.outlet_id);
      return paged(query, rows.map(payinFeeResource));
    },
    /**
     * Checks one field value for an outlet. A valid value answers with its normalised form; an invalid
     * one is a field error on `value`, an unknown outlet or field one on `payment_outlet` or `field`.
     */
    validateField(body: {
      payment_outlet?: string;
      outlet_id?: string;
      field: string;
      value: string;
    }) {
      const field = body.payment_outlet !== undefined ? 'payment_outlet' : 'outlet_id';
      const outlet = outlets.requirePayoutOutlet(body.payment_outlet ?? body.outlet_id, field);
      const cat = categoryOf(outlet.category);
      const known = cat?.fields.map((f) => f.id) ?? [];
      if (!known.includes(body.field)) {
        throw ApiError.field(
          'field',
          `"${body.field}" is not a field of ${outlet.name}. Its fields: ${known.join(', ') || 'none'}.`,
        );
      }
      const rule = FIELD_RULES[body.field]!;
      const value = rule.check(body.value);
      if (value === null) throw ApiError.field('value', rule.message);
      return {
        'validate-field': {
          payment_outlet: outlet.id,
          field: body.field,
          value,
          is_valid: true as const,
        },
      };
    },
  };
}

export type OutletDirectory = ReturnType<typeof createOutletDirectory>;
