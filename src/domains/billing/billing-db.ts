/**
 * The billing domain's database: customers of Kestrel Home (a fictional home-internet provider),
 * their charges, device orders, subscriptions and refunds. It is generated from a seed, not
 * shipped: the same seed gives byte-identical data on every machine, so tasks written against
 * one seed replay exactly. Money is integer cents everywhere in the database (no float drift,
 * no float paths for the canonical hash); tool outputs show it as decimal strings.
 */
import { seededRandom, type Random } from '../../core/index.js';

/** The day the seeded world stands still on: data ends the day before, and tool writes are dated with it. */
export const BILLING_TODAY = '2025-06-15';

/** The largest refund (in cents) an agent may issue alone; above it a human in `queue_billing` decides. */
export const AUTONOMOUS_REFUND_LIMIT_CENTS = 5000;

/** A customer. `verified` records a successful one-time-code check in this episode (part of the hash). */
export interface BillingCustomer {
  customer_id: string;
  name: string;
  email: string;
  phone: string;
  /** The one-time code texted to the customer's phone; fixed per customer so a simulated customer can know it. */
  verification_code: string;
  verified: boolean;
  member_since: string;
  subscription_id: string | null;
}

export interface BillingPlan {
  plan_id: string;
  name: string;
  price_cents: number;
  description: string;
}

export interface BillingSubscription {
  subscription_id: string;
  customer_id: string;
  plan_id: string;
  /** The monthly price charged at each renewal (after a plan change, the new plan's, from the next renewal). */
  price_cents: number;
  status: 'active' | 'cancelled';
  started_on: string;
  /** The end of the paid period: the next renewal while active, the last day of service once cancelled. */
  current_period_end: string;
  cancelled_on: string | null;
}

export interface BillingOrderItem {
  name: string;
  quantity: number;
  unit_price_cents: number;
}

export interface BillingOrder {
  order_id: string;
  customer_id: string;
  items: BillingOrderItem[];
  shipping_cents: number;
  total_cents: number;
  status: 'processing' | 'shipped' | 'delivered';
  placed_at: string;
  charge_id: string;
}

export interface BillingCharge {
  charge_id: string;
  customer_id: string;
  amount_cents: number;
  description: string;
  created_at: string;
  status: 'succeeded' | 'refunded';
  card_last4: string;
  order_id: string | null;
  subscription_id: string | null;
  /** The charge this one repeats by mistake (the billing system flags them); null for a genuine charge. */
  duplicate_of: string | null;
  refund_id: string | null;
}

export interface BillingRefund {
  refund_id: string;
  charge_id: string;
  customer_id: string;
  amount_cents: number;
  reason: 'duplicate_charge';
  refunded_on: string;
}

/** The whole database: keyed maps, as tau2-bench's databases are, so the canonical hash caches per record. */
export interface BillingDb {
  customers: Record<string, BillingCustomer>;
  plans: Record<string, BillingPlan>;
  subscriptions: Record<string, BillingSubscription>;
  orders: Record<string, BillingOrder>;
  charges: Record<string, BillingCharge>;
  refunds: Record<string, BillingRefund>;
}

/** How many customers `generateBillingDb` makes. */
export const BILLING_CUSTOMER_COUNT = 300;

const PLANS: readonly BillingPlan[] = [
  { plan_id: 'starter', name: 'Starter', price_cents: 2900, description: '100 Mbps home internet' },
  { plan_id: 'plus', name: 'Plus', price_cents: 4900, description: '500 Mbps home internet' },
  { plan_id: 'pro', name: 'Pro', price_cents: 6900, description: '1 Gbps home internet with a mesh extender' },
  { plan_id: 'ultra', name: 'Ultra', price_cents: 9900, description: '2 Gbps home internet with priority support' },
];

// Item names carry no commas: tasks quote them in `communicate_info`, which is matched with commas removed.
const CATALOG: readonly { name: string; price: number }[] = [
  { name: 'Wi-Fi 7 Router', price: 18900 },
  { name: 'Mesh Extender', price: 7900 },
  { name: 'Smart Plug', price: 1499 },
  { name: 'Ethernet Cable', price: 950 },
  { name: 'Indoor Camera', price: 4499 },
  { name: 'Wall Mount Kit', price: 1900 },
  { name: 'Power Adapter', price: 2400 },
  { name: 'Voice Remote', price: 1275 },
  { name: 'Travel Hotspot', price: 11900 },
  { name: 'Installation Visit', price: 5000 },
  { name: 'Signal Booster', price: 3650 },
];
const FREE_SHIPPING_FROM_CENTS = 5000;
const SHIPPING_CENTS = 500;

// prettier-ignore
const FIRST_NAMES = [
  'Ana', 'Ben', 'Chloe', 'Daniel', 'Elena', 'Farid', 'Grace', 'Hiro', 'Isabel', 'Jamal', 'Kira', 'Liam', 'Maya', 'Noah',
  'Olivia', 'Pavel', 'Quinn', 'Rosa', 'Samir', 'Tara', 'Umar', 'Vera', 'Wen', 'Ximena', 'Yusuf', 'Zoe', 'Aisha', 'Bruno',
  'Carmen', 'Dmitri', 'Esther', 'Felix', 'Gita', 'Hannah', 'Ivan', 'Julia', 'Kofi', 'Lena', 'Marco', 'Nadia',
];
// prettier-ignore
const LAST_NAMES = [
  'Diaz', 'Okafor', 'Nguyen', 'Schmidt', 'Rossi', 'Haddad', 'Kim', 'Tanaka', 'Silva', 'Johnson', 'Novak', 'Murphy',
  'Patel', 'Cohen', 'Larsen', 'Moreau', 'Kowalski', 'Mensah', 'Ortiz', 'Ivanova', 'Brown', 'Chen', 'Garcia', 'Ali',
  'Fischer', 'Lopez', 'Santos', 'Walker', 'Yilmaz', 'Evans',
];

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const isoDate = (days: number) => new Date(Date.UTC(2000, 0, 1) + days * 86_400_000).toISOString().slice(0, 10);
/** Days since 2000-01-01 of a `YYYY-MM-DD` date (UTC arithmetic only, no clock). */
const dayNumber = (date: string) =>
  Math.round((Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) - Date.UTC(2000, 0, 1)) / 86_400_000);
const timestamp = (date: string, minutes: number) => `${date}T${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}:00Z`;
const addMinutes = (at: string, minutes: number) => {
  const total = Number(at.slice(11, 13)) * 60 + Number(at.slice(14, 16)) + minutes;
  return timestamp(at.slice(0, 10), Math.min(total, 23 * 60 + 59));
};
const monthDate = (year: number, month: number, day: number) => `${year}-${pad(month)}-${pad(day)}`;

const DATA_FIRST_DAY = dayNumber('2025-01-01');
const DATA_LAST_DAY = dayNumber(BILLING_TODAY) - 1;

/** The generator's running state: counters give sequential ids in creation order. */
class Builder {
  readonly db: BillingDb = { customers: {}, plans: {}, subscriptions: {}, orders: {}, charges: {}, refunds: {} };
  /** Each customer's charges in creation order (scanning every charge per customer would be quadratic). */
  readonly chargesOf = new Map<string, BillingCharge[]>();
  private next = { customer: 1001, subscription: 5001, order: 20001, charge: 100001 };
  constructor(readonly random: Random) {
    for (const plan of PLANS) this.db.plans[plan.plan_id] = { ...plan };
  }

  customer(): BillingCustomer {
    const { random } = this;
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    const id = `cus_${this.next.customer++}`;
    // The id's digits keep every e-mail unique whatever names the seed picks.
    const customer: BillingCustomer = {
      customer_id: id,
      name: `${first} ${last}`,
      email: `${first}.${last}.${id.slice(4)}@example.com`.toLowerCase(),
      phone: `+1-555-${pad(random.int(100, 999), 3)}-${pad(random.int(0, 9999), 4)}`,
      verification_code: pad(random.int(0, 999_999), 6),
      verified: false,
      member_since: isoDate(random.int(dayNumber('2019-01-01'), dayNumber('2022-12-31'))),
      subscription_id: null,
    };
    this.db.customers[id] = customer;
    return customer;
  }

  charge(customer: BillingCustomer, card: string, amount: number, description: string, at: string, links: Partial<BillingCharge> = {}) {
    const charge: BillingCharge = {
      charge_id: `ch_${this.next.charge++}`,
      customer_id: customer.customer_id,
      amount_cents: amount,
      description,
      created_at: at,
      status: 'succeeded',
      card_last4: card,
      order_id: null,
      subscription_id: null,
      duplicate_of: null,
      refund_id: null,
      ...links,
    };
    this.db.charges[charge.charge_id] = charge;
    const list = this.chargesOf.get(customer.customer_id) ?? [];
    list.push(charge);
    this.chargesOf.set(customer.customer_id, list);
    return charge;
  }

  /** A monthly plan with one renewal charge per billing day from January to yesterday; some cancelled on the way. */
  subscription(customer: BillingCustomer, card: string) {
    const { random } = this;
    const plan = random.pick(PLANS);
    const billingDay = random.int(1, 28);
    const started = monthDate(random.int(2023, 2024), random.int(1, 12), billingDay);
    const cancelledMonth = random.next() < 0.12 ? random.int(2, 5) : null;
    const id = `sub_${this.next.subscription++}`;
    const subscription: BillingSubscription = {
      subscription_id: id,
      customer_id: customer.customer_id,
      plan_id: plan.plan_id,
      price_cents: plan.price_cents,
      status: cancelledMonth === null ? 'active' : 'cancelled',
      started_on: started,
      current_period_end: '',
      cancelled_on: cancelledMonth === null ? null : monthDate(2025, cancelledMonth, random.int(1, 28)),
    };
    let periodEnd = '';
    for (let month = 1; month <= 7; month++) {
      const date = monthDate(2025, month, billingDay);
      periodEnd = date;
      if (dayNumber(date) > DATA_LAST_DAY || (subscription.cancelled_on !== null && date > subscription.cancelled_on)) break;
      this.charge(customer, card, plan.price_cents, `${plan.name} plan monthly renewal`, timestamp(date, 6 * 60), {
        subscription_id: id,
      });
    }
    subscription.current_period_end = periodEnd;
    this.db.subscriptions[id] = subscription;
    customer.subscription_id = id;
  }

  order(customer: BillingCustomer, card: string, items: BillingOrderItem[], day: number) {
    const subtotal = items.reduce((sum, item) => sum + item.quantity * item.unit_price_cents, 0);
    const shipping = subtotal >= FREE_SHIPPING_FROM_CENTS || items.every((i) => i.name === 'Installation Visit') ? 0 : SHIPPING_CENTS;
    const date = isoDate(day);
    const orderId = `ord_${this.next.order++}`;
    const charge = this.charge(customer, card, subtotal + shipping, `Order ${orderId}`, timestamp(date, this.random.int(8 * 60, 21 * 60)), {
      order_id: orderId,
    });
    this.db.orders[orderId] = {
      order_id: orderId,
      customer_id: customer.customer_id,
      items,
      shipping_cents: shipping,
      total_cents: subtotal + shipping,
      status: day < DATA_LAST_DAY - 14 ? 'delivered' : day < DATA_LAST_DAY - 3 ? 'shipped' : 'processing',
      placed_at: charge.created_at,
      charge_id: charge.charge_id,
    };
    return this.db.orders[orderId];
  }

  randomItems(): BillingOrderItem[] {
    const { random } = this;
    const count = random.next() < 0.75 ? 1 : 2;
    const items: BillingOrderItem[] = [];
    while (items.length < count) {
      const product = random.pick(CATALOG);
      if (items.some((i) => i.name === product.name)) continue;
      const quantity = product.price < 3000 && random.next() < 0.3 ? 2 : 1;
      items.push({ name: product.name, quantity, unit_price_cents: product.price });
    }
    return items;
  }

  /** A second charge for the same thing minutes after the first, flagged as its duplicate; some already refunded. */
  duplicate(original: BillingCharge, refunded: boolean) {
    const customer = this.db.customers[original.customer_id] as BillingCustomer;
    const { charge_id: _id, created_at, ...rest } = original;
    const copy = this.charge(
      customer,
      original.card_last4,
      original.amount_cents,
      original.description,
      addMinutes(created_at, this.random.int(1, 6)),
      {
        ...rest,
        duplicate_of: original.charge_id,
      },
    );
    if (refunded) {
      const refundId = `re_${copy.charge_id.slice(3)}`;
      copy.status = 'refunded';
      copy.refund_id = refundId;
      this.db.refunds[refundId] = {
        refund_id: refundId,
        charge_id: copy.charge_id,
        customer_id: copy.customer_id,
        amount_cents: copy.amount_cents,
        reason: 'duplicate_charge',
        refunded_on: isoDate(Math.min(dayNumber(created_at.slice(0, 10)) + 3, DATA_LAST_DAY)),
      };
    }
    return copy;
  }
}

/**
 * Generates the billing database for a seed. About 85% of customers subscribe (some cancelled),
 * most have device orders (some repeat an earlier order: two genuine charges of the same amount),
 * about one in six has a duplicate charge (a quarter of those already refunded), and a few have
 * a duplicated plan-change proration of exactly 50.00 or 50.01, the two sides of the autonomous limit.
 */
export function generateBillingDb(seed: number): BillingDb {
  const random = seededRandom(seed);
  const builder = new Builder(random);
  const { db } = builder;
  const customers: { customer: BillingCustomer; card: string }[] = [];
  for (let i = 0; i < BILLING_CUSTOMER_COUNT; i++) {
    const customer = builder.customer();
    const card = pad(random.int(0, 9999), 4);
    customers.push({ customer, card });
    if (random.next() < 0.85) builder.subscription(customer, card);
    const orders = random.int(0, 3);
    for (let o = 0; o < orders; o++) {
      const order = builder.order(customer, card, builder.randomItems(), random.int(DATA_FIRST_DAY, DATA_LAST_DAY - 20));
      if (random.next() < 0.1) {
        const again = dayNumber(order.placed_at.slice(0, 10)) + random.int(2, 15);
        builder.order(
          customer,
          card,
          order.items.map((item) => ({ ...item })),
          again,
        );
      }
    }
    const charges = builder.chargesOf.get(customer.customer_id) ?? [];
    if (charges.length > 0 && random.next() < 0.17) builder.duplicate(random.pick(charges), random.next() < 0.25);
  }
  // The limit's two sides, on customers with no duplicate yet: prorations have arbitrary cents.
  const clean = customers.filter(
    ({ customer }) =>
      customer.subscription_id !== null &&
      db.subscriptions[customer.subscription_id]?.status === 'active' &&
      (builder.chargesOf.get(customer.customer_id) ?? []).every((c) => c.duplicate_of === null),
  );
  for (const amount of [5000, 5000, 5000, 5001, 5001, 5001]) {
    const { customer, card } = clean.splice(random.int(0, clean.length - 1), 1)[0] as (typeof clean)[number];
    const day = random.int(dayNumber('2025-04-01'), DATA_LAST_DAY - 10);
    const original = builder.charge(customer, card, amount, 'Plan change proration', timestamp(isoDate(day), random.int(8 * 60, 20 * 60)), {
      subscription_id: customer.subscription_id,
    });
    builder.duplicate(original, false);
  }
  return db;
}

/** Formats cents as a decimal string: 5001 → `50.01`. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${pad(abs % 100)}`;
}
