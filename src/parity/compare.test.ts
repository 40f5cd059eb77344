import { describe, expect, it } from 'vitest';
import { compareAnswer, formatOf, type Difference } from './compare.js';
import type { RecordedAnswer } from './har.js';
import { ELIDED, parseLenient } from './lenient-parse.js';

const rec = (
  value: unknown,
  o: Partial<{
    status: number;
    truncated: boolean;
    partial: boolean;
    typeAmbiguous: string[];
  }> = {},
): RecordedAnswer => ({
  status: o.status,
  body: { kind: 'json', value, truncated: o.truncated ?? false, partial: o.partial ?? false },
  typeAmbiguous: o.typeAmbiguous ?? [],
});
const short = (ds: Difference[]) => ds.map((d) => `${d.kind} ${d.path}`);

describe('formatOf: how a string value is written', () => {
  it('takes a phone number (leading zero or plus) for a string, not a decimal', () => {
    expect(formatOf('payer_contact_info', '09171234567')).toBe('string');
    expect(formatOf('contact', '+639171234567')).toBe('string');
    expect(formatOf('amount', '0')).toBe('decimal(as entered)');
    expect(formatOf('amount', '0.025')).toBe('decimal(as entered)');
  });

  it('tells decimals as entered from padded ones, epoch seconds from ISO 8601, and leaves ids alone', () => {
    expect(formatOf('amount', '5')).toBe('decimal(as entered)');
    expect(formatOf('amount', '0.025')).toBe('decimal(as entered)');
    expect(formatOf('amount', '5.00000000')).toBe('decimal(8 places)');
    expect(formatOf('fee_percent', '0.00')).toBe('decimal(2 places)');
    expect(formatOf('created_time', '1594617992')).toBe('epoch seconds');
    expect(formatOf('amount', '1594617992')).toBe('decimal(as entered)');
    expect(formatOf('created_at', '2014-08-28T12:11:36.938Z')).toBe('ISO 8601');
    expect(formatOf('id', '12345')).toBe('string');
    expect(formatOf('confirmation_code', '12323')).toBe('string');
  });
});

describe('compareAnswer', () => {
  it("reports the issue's sell order: amount as written, missing and extra keys at every depth", () => {
    const recorded = rec({
      order: {
        amount: '5',
        created_time: '1594617992',
        fields: { target_address: 'a' },
        payment_outlet: { id: 'x', payment_outlet_provider_id: null },
      },
    });
    const ours = {
      order: {
        amount: '5.00000000',
        created_time: '2026-01-01T00:00:00.000000Z',
        fields: {},
        payment_outlet: { id: 'x' },
        fee: '0.00000000',
      },
    };
    expect(short(compareAnswer(recorded, { status: 201, body: ours }))).toEqual([
      'format order.amount',
      'format order.created_time',
      'missing order.fields.target_address',
      'missing order.payment_outlet.payment_outlet_provider_id',
      'extra order.fee',
    ]);
  });

  it('takes a recorded decimal whose last place is not zero as padded to as many places as ours (quotes.har#3)', () => {
    const market = rec({ market: { bid: '9911.31691110', ask: '10008.48668473', last: '5' } });
    const ours = (ask: string, last = '5') => ({
      status: 200,
      body: { market: { bid: '624931.11000000', ask, last } },
    });
    expect(compareAnswer(market, ours('624931.11000000'))).toEqual([]);
    expect(short(compareAnswer(market, ours('624931.110000')))).toEqual(['format market.ask']);
    // A decimal as entered with fewer places than ours stays a difference.
    expect(short(compareAnswer(market, ours('1.00000000', '5.00000000')))).toEqual([
      'format market.last',
    ]);
  });

  it('compares the status when recorded, else its class from the body', () => {
    expect(
      short(
        compareAnswer(rec({ errors: {} }, { status: 401 }), { status: 400, body: { errors: {} } }),
      ),
    ).toEqual(['status status']);
    expect(compareAnswer(rec({ errors: {} }), { status: 400, body: { errors: {} } })).toEqual([]);
    expect(
      compareAnswer(rec({ order: {} }), { status: 404, body: { order: {} } })[0],
    ).toMatchObject({ kind: 'status', recorded: 'unknown (a success body)', ours: '404' });
  });

  it('checks types (number vs string, null), enum values outside lists, and the first item of a list', () => {
    const d = compareAnswer(
      rec({ a: 0.5, delivery_status: 'pending', l: [{ n: '1' }], e: [{ status: 'success' }] }),
      {
        status: 200,
        body: { a: '0.5', delivery_status: 'canceled', l: [{ n: 1 }], e: [{ status: 'pending' }] },
      },
    );
    expect(short(d)).toEqual(['type a', 'enum delivery_status', 'type l[].n']);
    expect(
      short(compareAnswer(rec({ l: [{ n: '1' }] }), { status: 200, body: { l: [] } })),
    ).toEqual(['missing l[]']);
  });

  it('compares upper-case codes as enum values (currency), and the vocabulary of a list as a set', () => {
    const pr = compareAnswer(rec({ 'payment-request': { currency: 'PHP', status: 'pending' } }), {
      status: 201,
      body: { 'payment-request': { currency: 'PBTC', status: 'pending' } },
    });
    expect(pr).toEqual([
      {
        path: 'payment-request.currency',
        kind: 'enum',
        recorded: '"PHP"',
        ours: '"PBTC"',
      },
    ]);
    // In a list, each recorded currency or category must be among ours, in any order; a record's state
    // (status) is its own and is not compared.
    const list = (items: Array<[string, string]>) => ({
      accounts: items.map(([currency, status]) => ({ currency, status })),
    });
    const same = compareAnswer(
      rec(
        list([
          ['BTC', 'active'],
          ['PHP', 'active'],
        ]),
      ),
      {
        status: 200,
        body: list([
          ['PHP', 'frozen'],
          ['BTC', 'active'],
        ]),
      },
    );
    expect(same).toEqual([]);
    const other = compareAnswer(rec(list([['PHP', 'active']])), {
      status: 200,
      body: list([
        ['PBTC', 'active'],
        ['BTC', 'active'],
      ]),
    });
    expect(other).toEqual([
      { path: 'accounts[].currency', kind: 'enum', recorded: '"PHP"', ours: '"PBTC" | "BTC"' },
    ]);
  });

  it('reports no extra key of a truncated body, and accepts anything where the source elided a value', () => {
    expect(
      compareAnswer(rec({ a: '1', b: ELIDED }, { truncated: true }), {
        status: 200,
        body: { a: '2', b: { x: 1 }, c: 1 },
      }),
    ).toEqual([]);
    expect(
      short(
        compareAnswer(rec({ a: '1', z: ELIDED }, { truncated: true }), {
          status: 200,
          body: { a: '2' },
        }),
      ),
    ).toEqual(['missing z']);
  });

  it('looks for a partial body anywhere in ours, and for a bare message among our strings', () => {
    const fragment = rec({ verification_code: ['x'] }, { partial: true });
    expect(
      compareAnswer(fragment, { status: 400, body: { errors: { verification_code: ['y'] } } }),
    ).toEqual([]);
    expect(
      short(compareAnswer(fragment, { status: 400, body: { errors: { amount: ['y'] } } })),
    ).toEqual(['missing ']);
    const text: RecordedAnswer = {
      status: undefined,
      body: { kind: 'text', text: 'daily limit.', partial: true },
      typeAmbiguous: [],
    };
    expect(
      compareAnswer(text, {
        status: 400,
        body: { errors: { non_field_errors: ['Over the daily limit.'] } },
      }),
    ).toEqual([]);
  });

  it('accepts string or null on a _typeAmbiguous field, and ignores sandbox_debug', () => {
    const r = rec(
      { invoice: { note: '' } },
      { typeAmbiguous: ['note', 'expires_in_seconds (string or number)'] },
    );
    expect(
      compareAnswer(r, {
        status: 200,
        body: { invoice: { note: null }, sandbox_debug: { code: 'x' } },
      }),
    ).toEqual([]);
    expect(
      short(
        compareAnswer(rec({ invoice: { other: '' } }), {
          status: 200,
          body: { invoice: { other: null } },
        }),
      ),
    ).toEqual(['type invoice.other']);
  });

  it('ignores a sandbox_debug in the recording (a session recorded against a sandbox) as in ours', () => {
    const recorded = {
      errors: { amount: ['This field is required.'] },
      sandbox_debug: { hint: 'x' },
    };
    const ours = { errors: { amount: ['This field is required.'] } };
    expect(compareAnswer(rec(recorded, { status: 400 }), { status: 400, body: ours })).toEqual([]);
    expect(
      short(
        compareAnswer(rec({ ...recorded, extra: 1 }, { status: 400 }), { status: 400, body: ours }),
      ),
    ).toEqual(['missing extra']);
  });

  it('compares a CSV answer by its columns and the formats of its values, not as text', () => {
    const text = (head: string, ...rows: string[]) => [head, ...rows].join('\n');
    const csvRec: RecordedAnswer = {
      status: 200,
      body: {
        kind: 'text',
        text: text(
          'entry_type,transaction_id,amount,created_at',
          'outgoing,ab12,1517.50000000,2026-11-01T10:00:00Z',
          'incoming,cd34,5.00000000,2026-11-02T10:00:00Z',
        ),
        partial: false,
      },
      typeAmbiguous: [],
    };
    const same = text(
      'entry_type,transaction_id,amount,created_at',
      'incoming,zz99,20.00000000,2026-12-05T08:30:00Z',
    );
    expect(compareAnswer(csvRec, { status: 200, body: same })).toEqual([]);
    const other = text('entry_type,transaction_id,amount,order_fee', 'incoming,zz99,20,"1,5"');
    expect(short(compareAnswer(csvRec, { status: 200, body: other }))).toEqual([
      'missing csv.created_at',
      'extra csv.order_fee',
      'format csv.amount',
    ]);
    expect(
      short(
        compareAnswer(csvRec, { status: 200, body: 'entry_type,transaction_id,amount,created_at' }),
      ),
    ).toEqual(['missing csv[]']);
    expect(short(compareAnswer(csvRec, { status: 200, body: { detail: 'x' } }))).toEqual(['type ']);
  });

  it('compares a printed list with our one list', () => {
    expect(
      compareAnswer(rec([{ id: 'a' }]), {
        status: 200,
        body: { 'crypto-accounts': [{ id: 'b' }], meta: {} },
      }),
    ).toEqual([]);
  });
});
