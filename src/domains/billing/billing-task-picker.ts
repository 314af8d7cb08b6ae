/**
 * What billing's task kinds share: the draft a kind writes, the picker that finds customers and
 * charges for it in the seeded database (each customer used once), and the common phrases of
 * briefs and gold trajectories.
 */
import type { Random } from '../../core/index.js';
import type { BillingCharge, BillingCustomer, BillingDb } from './billing-db.js';

/** A task before it has an id and a split. */
export interface Draft {
  kind: string;
  purpose: string;
  policies: string;
  notes: string | null;
  persona: string | null;
  reason: string;
  known: string;
  unknown: string | null;
  instructions: string;
  actions: { name: string; arguments: Record<string, unknown>; compare_args?: string[] }[];
  communicate: string[];
  handoff: { queue: string; reason: string } | null;
}

/** One gold action as the task file writes it. */
export type Action = Draft['actions'][number];

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** `2025-05-14…` → `14 May 2025` (no comma: briefs stay free of the separator COMMUNICATE strips). */
export const day = (iso: string) => `${Number(iso.slice(8, 10))} ${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`;
/** The customer's first and last names (the seeded names have exactly two words). */
export const firstName = (c: BillingCustomer) => c.name.split(' ')[0] as string;
export const lastName = (c: BillingCustomer) => c.name.split(' ')[1] as string;

/** The facts and helpers every kind uses. */
export class Picker {
  readonly used = new Set<string>();
  private readonly chargesBy = new Map<string, BillingCharge[]>();
  constructor(
    readonly db: BillingDb,
    readonly random: Random,
  ) {
    for (const charge of Object.values(db.charges)) {
      const list = this.chargesBy.get(charge.customer_id) ?? [];
      list.push(charge);
      this.chargesBy.set(charge.customer_id, list);
    }
  }

  /** The customer's charges in creation order. */
  charges = (c: BillingCustomer) => this.chargesBy.get(c.customer_id) ?? [];
  duplicates = (c: BillingCustomer) => this.charges(c).filter((ch) => ch.duplicate_of !== null);
  /** The customer's only duplicate charge, if they have exactly one. */
  onlyDuplicate = (c: BillingCustomer) => {
    const dups = this.duplicates(c);
    return dups.length === 1 ? dups[0] : undefined;
  };
  /** No duplicate charge at all, refunded or not. */
  clean = (c: BillingCustomer) => this.duplicates(c).length === 0;
  activeSubscription = (c: BillingCustomer) => {
    const sub = c.subscription_id === null ? undefined : this.db.subscriptions[c.subscription_id];
    return sub?.status === 'active' ? sub : undefined;
  };

  /** `n` customers matching `test`, picked at random among those not used yet, in a stable order. */
  take(n: number, test: (c: BillingCustomer) => boolean, why: string): BillingCustomer[] {
    const pool = Object.values(this.db.customers).filter((c) => !this.used.has(c.customer_id) && test(c));
    if (pool.length < n) throw new Error(`billing tasks: only ${pool.length} customers for ${why}, ${n} needed`);
    const picked: BillingCustomer[] = [];
    for (let i = 0; i < n; i++) {
      const [c] = pool.splice(this.random.int(0, pool.length - 1), 1) as [BillingCustomer];
      this.used.add(c.customer_id);
      picked.push(c);
    }
    return picked;
  }

  /** An order charge a customer could ask about unambiguously: one item, genuine, the only charge of its amount. */
  explainable = (charge: BillingCharge) => {
    const order = charge.order_id === null ? undefined : this.db.orders[charge.order_id];
    const mine = this.chargesBy.get(charge.customer_id) ?? [];
    return (
      order !== undefined &&
      order.items.length === 1 &&
      charge.duplicate_of === null &&
      mine.filter((ch) => ch.amount_cents === charge.amount_cents).length === 1
    );
  };

  /** Two genuine orders of the same items (a repeat purchase), when their amount is on no other charge. */
  repeatOrders = (c: BillingCustomer) => {
    const orders = Object.values(this.db.orders).filter((o) => o.customer_id === c.customer_id);
    const key = (o: (typeof orders)[number]) => JSON.stringify(o.items);
    for (const [i, first] of orders.entries()) {
      const second = orders.slice(i + 1).find((o) => key(o) === key(first));
      const sameAmount = this.charges(c).filter((ch) => ch.amount_cents === first.total_cents).length;
      if (second && sameAmount === 2) return [first, second] as const;
    }
    return undefined;
  };

  /** How the customer knows a charge: what it paid for. */
  story(charge: BillingCharge): string {
    if (charge.order_id !== null) {
      const order = this.db.orders[charge.order_id];
      const items = order?.items.map((i) => (i.quantity > 1 ? `${i.quantity} x ${i.name}` : i.name)).join(' and ') ?? 'an order';
      return `your order of ${items}`;
    }
    if (charge.description === 'Plan change proration') return 'a plan change';
    return `your ${charge.description.replace(' monthly renewal', '')} monthly renewal`;
  }
}

// ---------------------------------------------------------------------------------------------
// Shared pieces of briefs and gold trajectories.

/** What a simulated customer knows: who they are, and the code their phone receives. */
export const identity = (c: BillingCustomer) => `Your name is ${c.name} and your e-mail address is ${c.email}.`;
export const codeInfo = (c: BillingCustomer) =>
  `When the agent texts you a verification code, the code you receive is ${c.verification_code}.`;
export const known = (c: BillingCustomer) => `${identity(c)} ${codeInfo(c)}`;

/** A gold action; `verify` is the three calls that verify a customer, `handoff` the final hand-off. */
export const call = (name: string, args: Record<string, unknown>): Action => ({ name, arguments: args });
export const verify = (c: BillingCustomer): Action[] => [
  call('find_customer_by_email', { email: c.email }),
  call('send_verification_code', { customer_id: c.customer_id }),
  call('verify_customer', { customer_id: c.customer_id, code: c.verification_code }),
];
export const handoff = (queue: string, reason: string, summary: string): Action => ({
  name: 'handoff',
  arguments: { target: queue, reason, summary },
  // Any sensible summary will do; the target and the reason are the label.
  compare_args: ['target', 'reason'],
});
/** A charge's amount as `refund_charge` takes it (dollars). */
export const amountOf = (charge: BillingCharge) => charge.amount_cents / 100;

/** Behaviour rules the briefs share. */
export const COOPERATE = 'Give your e-mail address and the verification code when the agent asks for them.';
export const CONFIRM = 'When the agent describes the change it is about to make and asks you to confirm, say yes.';
export const END = 'When your request is done, thank the agent and end the conversation.';
export const ACCEPT_TRANSFER = 'If the agent says a specialist team will take over, accept and end the conversation.';
