/**
 * What an outlet category means on the wire: its name, the fields a payer or payee fills in, and how a
 * value of each field is checked (`validateField`). The real service describes an outlet's category in
 * `payment_outlet_type` (name, fields, optional_fields, remittance_fields, payout_duration …); the
 * categories and their fields here are the sandbox's (docs/fidelity.md, "Outlets").
 */
export interface OutletField {
  id: string;
  name: string;
  field_type: string;
  help_text: string;
  help_link: string;
}

export interface FieldRule {
  /** Returns the value as the sandbox stores it, or null when the value is not valid. */
  check: (value: string) => string | null;
  message: string;
}

export interface OutletCategory {
  id: string;
  name: string;
  kind: 'payin' | 'payout';
  fields: OutletField[];
  payout_duration: string;
  /** What the category's outlets charge, in words (`fee_info` / `fee_structure_description`). */
  fee_info: string;
}

const field = (id: string, name: string, help_text = ''): OutletField => ({
  id,
  name,
  field_type: '',
  help_text,
  help_link: '',
});

export const OUTLET_CATEGORIES: OutletCategory[] = [
  {
    id: 'bank',
    name: 'Bank transfer',
    kind: 'payout',
    fields: [
      field('account_number', 'Account number', '10 to 16 digits'),
      field('account_name', "Account holder's name"),
    ],
    payout_duration: 'Within 24 hours',
    fee_info: 'Per outlet and amount: see the outlet fee brackets',
  },
  {
    id: 'e-wallet',
    name: 'E-wallet',
    kind: 'payout',
    fields: [field('mobile_number', 'Mobile number', 'Philippine mobile number (09XXXXXXXXX)')],
    payout_duration: 'Instant',
    fee_info: 'Per outlet and amount: see the outlet fee brackets',
  },
  {
    id: 'remittance',
    name: 'Cash pick-up',
    kind: 'payout',
    fields: [
      field(
        'recipient_full_name',
        "Recipient's full name",
        'Please provide first name and surname (ex. John Santos)',
      ),
      field('mobile_number', "Recipient's mobile number", 'Philippine mobile number (09XXXXXXXXX)'),
    ],
    payout_duration: 'Within 1 hour',
    fee_info: 'Per outlet and amount: see the outlet fee brackets',
  },
  {
    id: 'coins_transfer',
    name: 'Coins Transfer',
    kind: 'payout',
    fields: [field('target_address', 'Target Address', 'Wallet address, email or mobile number')],
    payout_duration: 'Instant',
    fee_info: 'Free',
  },
  // Prepaid mobile load (`load-globe` …), as the real service's older docs and a public client sell it.
  {
    id: 'mobile-load',
    name: 'Mobile Load',
    kind: 'payout',
    fields: [field('phone_number_load', 'Phone Number', 'Philippine mobile number (09XXXXXXXXX)')],
    payout_duration: 'Instant',
    fee_info: 'Free',
  },
  // The real service's name for over-the-counter non-bank pay-in outlets.
  {
    id: 'nonbank-otc',
    name: 'Non-bank OTC',
    kind: 'payin',
    fields: [],
    payout_duration: '',
    fee_info: 'Free',
  },
];

const digits = (v: string) => v.replace(/[\s-]/g, '');
const MOBILE = /^(?:\+?63|0)(9\d{9})$/;
/**
 * `local@domain.tld` as `/^[^\s@]+@[^\s@]+\.[^\s@]+$/` reads it (no space, one `@`, a dot inside the
 * domain), in one pass: that expression backtracks polynomially on `a@` and a long run of dots
 * (docs/design.md#input-handling).
 */
function isEmail(text: string): boolean {
  const at = text.indexOf('@');
  if (at < 1 || text.includes('@', at + 1) || /\s/.test(text)) return false;
  const domain = text.slice(at + 1);
  const dot = domain.indexOf('.', 1);
  return dot > 0 && dot < domain.length - 1;
}

/** How each field is checked, and the normalised value kept for it. */
export const FIELD_RULES: Record<string, FieldRule> = {
  account_number: {
    check: (v) => (/^\d{10,16}$/.test(digits(v)) ? digits(v) : null),
    message: 'Enter a valid account number (10 to 16 digits).',
  },
  account_name: {
    check: (v) => (/^[\p{L}][\p{L} .,'-]{1,99}$/u.test(v.trim()) ? v.trim() : null),
    message: "Enter the account holder's name (2 to 100 letters).",
  },
  recipient_full_name: {
    check: (v) =>
      /^[\p{L}][\p{L}.'-]*(?: [\p{L}][\p{L}.'-]*)+$/u.test(v.trim()) && v.trim().length <= 100
        ? v.trim()
        : null,
    message: 'Enter the first name and surname of the recipient.',
  },
  phone_number_load: {
    check: (v) => {
      const m = MOBILE.exec(digits(v));
      return m ? `+63${m[1]}` : null;
    },
    message: 'Enter a valid Philippine mobile number (09XXXXXXXXX or +639XXXXXXXXX).',
  },
  mobile_number: {
    check: (v) => {
      const m = MOBILE.exec(digits(v));
      return m ? `+63${m[1]}` : null;
    },
    message: 'Enter a valid Philippine mobile number (09XXXXXXXXX or +639XXXXXXXXX).',
  },
  target_address: {
    check: (v) => {
      const t = v.trim();
      if (/^[0-9a-f]{32}$/i.test(t) || isEmail(t)) return t.toLowerCase();
      const m = MOBILE.exec(digits(t));
      return m ? `+63${m[1]}` : null;
    },
    message: 'Enter a wallet address, an email address or a Philippine mobile number.',
  },
};

export const categoryOf = (id: string): OutletCategory | undefined =>
  OUTLET_CATEGORIES.find((c) => c.id === id);

/** The built-in payout outlet that sends pesos to another wallet (not part of the generated fixtures). */
export const COINS_TRANSFER = {
  id: 'coins_transfer',
  name: 'Coins Transfer',
  category: 'coins_transfer',
  currency: 'PHP',
} as const;

/**
 * The built-in prepaid-load outlets (the real ids and names of the older docs' `send-load` example and a
 * public client); a sell order through one names the phone in `phone_number_load`.
 */
export const MOBILE_LOAD_OUTLETS = [
  { id: 'load-globe', name: 'Globe / TM Prepaid', category: 'mobile-load', currency: 'PHP' },
  { id: 'load-smart', name: 'Smart / TNT Prepaid', category: 'mobile-load', currency: 'PHP' },
  { id: 'load-sun', name: 'Sun Cellular Prepaid', category: 'mobile-load', currency: 'PHP' },
] as const;

/** Pay-in amount limits: the real service's over-the-counter outlets show a minimum of 15 PHP. */
export const PAYIN_LIMITS = { minimum: '15', maximum: '100000000' } as const;
