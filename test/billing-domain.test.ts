import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findingsFrom, ruleVerdictText, type TranscriptItem } from '../src/core/index.js';
import {
  AUTONOMOUS_REFUND_LIMIT_CENTS,
  BILLING_CUSTOMER_COUNT,
  BILLING_ERRORS,
  BILLING_HANDOFF_REASONS,
  BILLING_POLICY,
  BILLING_QUEUE_IDS,
  BILLING_QUEUES,
  BILLING_SEED,
  BILLING_TOOL_SCHEMAS,
  BILLING_TOOLSET,
  billingDbHasher,
  formatCents,
  generateBillingDb,
  loadBillingDomain,
  refundLimitRule,
  type BillingCharge,
  type BillingCustomer,
  type BillingDb,
} from '../src/domains/billing/index.js';
import type { Episode } from '../src/domains/domain.js';
import { callDomainTool } from '../src/domains/domain-tool.js';
import { freezeDb } from '../src/domains/episode.js';
import { pythonJson } from '../src/domains/tau2/python-json.js';
import { MODEL_HANDOFF_REASONS } from '../src/runtime/handoff-tool.js';

const domain = loadBillingDomain();
const db = domain.initialDb;
const E = BILLING_ERRORS;

/** tau2-bench's hash computed the plain way (no caches), to check the domain's cached hasher against. */
const referenceHash = (value: BillingDb) => createHash('sha256').update(pythonJson(value), 'utf8').digest('hex');

const customers = Object.values(db.customers);
const charges = Object.values(db.charges);
const chargesOf = (c: BillingCustomer) => charges.filter((ch) => ch.customer_id === c.customer_id);
/** The unrefunded duplicate of `cents`, and its customer (the seeded data has some on both sides of the limit). */
function duplicateOf(test: (cents: number) => boolean): { customer: BillingCustomer; dup: BillingCharge } {
  const dup = charges.find((ch) => ch.duplicate_of !== null && ch.status === 'succeeded' && test(ch.amount_cents));
  if (!dup) throw new Error('no such duplicate in the seeded data');
  return { customer: db.customers[dup.customer_id]!, dup };
}
const activeSubscriber = customers.find((c) => c.subscription_id !== null && db.subscriptions[c.subscription_id]!.status === 'active')!;
const cancelledSubscriber = customers.find(
  (c) => c.subscription_id !== null && db.subscriptions[c.subscription_id]!.status === 'cancelled',
)!;
const nonSubscriber = customers.find((c) => c.subscription_id === null)!;
const refundedDup = charges.find((ch) => ch.status === 'refunded')!;
const genuine = charges.find((ch) => ch.duplicate_of === null && ch.order_id !== null)!;

/** Calls a tool on an episode; it must succeed. */
function ok(episode: Episode<BillingDb>, name: string, args: Record<string, unknown> = {}): string {
  const result = episode.call(name, args);
  expect(result.error, result.output).toBe(false);
  return result.output;
}
/** Calls a tool on an episode; it must fail with exactly `Error: <message>` and change nothing. */
function fails(episode: Episode<BillingDb>, name: string, args: Record<string, unknown>, message: string): void {
  const before = episode.hash();
  expect(episode.call(name, args)).toEqual({ output: `Error: ${message}`, error: true });
  expect(episode.hash()).toBe(before);
}
/** A new episode with `customer` verified. */
function verified(customer: BillingCustomer): Episode<BillingDb> {
  const episode = domain.newEpisode();
  ok(episode, 'verify_customer', { customer_id: customer.customer_id, code: customer.verification_code });
  return episode;
}

describe('the seeded database', () => {
  it('is the same for the same seed, byte for byte, and different for another seed', () => {
    const a = JSON.stringify(generateBillingDb(BILLING_SEED));
    expect(JSON.stringify(generateBillingDb(BILLING_SEED))).toBe(a);
    expect(JSON.stringify(generateBillingDb(BILLING_SEED + 1))).not.toBe(a);
  });

  it('hashes the same for the same seed, differently for another, and as tau2-bench hashes it', () => {
    const again = loadBillingDomain({ seed: BILLING_SEED });
    const other = loadBillingDomain({ seed: 7 });
    expect(again.newEpisode().hash()).toBe(domain.newEpisode().hash());
    expect(other.newEpisode().hash()).not.toBe(domain.newEpisode().hash());
    expect(domain.newEpisode().hash()).toBe(referenceHash(db));
    expect(other.newEpisode().hash()).toBe(referenceHash(other.initialDb));
    // A hasher primed on one database still hashes an unrelated one correctly.
    expect(billingDbHasher(db)(other.initialDb)).toBe(referenceHash(other.initialDb));
    expect(domain.source).toBe(`baton billing v1 (seed ${BILLING_SEED})`);
    expect(other.source).toBe('baton billing v1 (seed 7)');
    // The committed tasks name this seed's customers, so another seed comes without tasks.
    expect(other.tasks).toEqual([]);
  });

  it('has the customers and the cases the tasks need, money in integer cents', () => {
    expect(customers).toHaveLength(BILLING_CUSTOMER_COUNT);
    expect(new Set(customers.map((c) => c.email)).size).toBe(customers.length);
    expect(customers.every((c) => /^\d{6}$/.test(c.verification_code) && !c.verified)).toBe(true);
    const dups = charges.filter((ch) => ch.duplicate_of !== null);
    expect(dups.filter((ch) => ch.amount_cents < AUTONOMOUS_REFUND_LIMIT_CENTS).length).toBeGreaterThan(20);
    expect(dups.filter((ch) => ch.amount_cents > AUTONOMOUS_REFUND_LIMIT_CENTS).length).toBeGreaterThan(10);
    expect(dups.filter((ch) => ch.amount_cents === 5000).length).toBeGreaterThanOrEqual(3);
    expect(dups.filter((ch) => ch.amount_cents === 5001).length).toBeGreaterThanOrEqual(3);
    expect(dups.some((ch) => ch.status === 'refunded')).toBe(true);
    for (const dup of dups) {
      const original = db.charges[dup.duplicate_of!]!;
      expect([original.amount_cents, original.customer_id, original.description]).toEqual([
        dup.amount_cents,
        dup.customer_id,
        dup.description,
      ]);
    }
    for (const charge of charges) expect(Number.isInteger(charge.amount_cents) && charge.amount_cents > 0).toBe(true);
    for (const order of Object.values(db.orders)) {
      const subtotal = order.items.reduce((sum, i) => sum + i.quantity * i.unit_price_cents, 0);
      expect(order.total_cents).toBe(subtotal + order.shipping_cents);
      expect(db.charges[order.charge_id]!.amount_cents).toBe(order.total_cents);
    }
  });

  it('is frozen, and formats cents as decimal strings', () => {
    expect(Object.isFrozen(db.customers[customers[0]!.customer_id])).toBe(true);
    expect([formatCents(5000), formatCents(5001), formatCents(7), formatCents(12345)]).toEqual(['50.00', '50.01', '0.07', '123.45']);
  });
});

describe('episodes', () => {
  it("keep an episode's writes to itself: other episodes and the initial database are untouched", () => {
    const { customer, dup } = duplicateOf((c) => c <= AUTONOMOUS_REFUND_LIMIT_CENTS);
    const initialHash = domain.newEpisode().hash();
    const first = verified(customer);
    ok(first, 'refund_charge', { charge_id: dup.charge_id, amount: dup.amount_cents / 100 });
    ok(first, 'update_email', { customer_id: customer.customer_id, new_email: 'someone.new@example.org' });
    const second = domain.newEpisode();
    expect(first.db.charges[dup.charge_id]!.status).toBe('refunded');
    expect(second.db.charges[dup.charge_id]!.status).toBe('succeeded');
    expect(db.charges[dup.charge_id]!.status).toBe('succeeded');
    expect(db.customers[customer.customer_id]!.verified).toBe(false);
    expect(db.customers[customer.customer_id]!.email).toBe(customer.email);
    expect(Object.keys(db.refunds)).not.toContain(first.db.charges[dup.charge_id]!.refund_id);
    expect(first.hash()).not.toBe(initialHash);
    expect(first.hash()).toBe(referenceHash(first.db));
    expect(second.hash()).toBe(initialHash);
    fails(second, 'list_charges', { customer_id: customer.customer_id }, E.notVerified(customer.customer_id));
  });

  it('records verification in the database, so it is part of the hash', () => {
    const customer = customers[3]!;
    const episode = verified(customer);
    expect(episode.db.customers[customer.customer_id]!.verified).toBe(true);
    expect(episode.hash()).not.toBe(domain.newEpisode().hash());
  });

  it('runs reads on the frozen snapshot: a read never changes the hash, and a write does', () => {
    const { customer, dup } = duplicateOf((c) => c <= AUTONOMOUS_REFUND_LIMIT_CENTS);
    const episode = verified(customer);
    const before = episode.hash();
    const id = { customer_id: customer.customer_id };
    for (const name of ['get_customer_details', 'list_charges', 'list_orders']) ok(episode, name, id);
    ok(episode, 'list_plans');
    ok(episode, 'get_charge_details', { charge_id: dup.charge_id });
    if (customer.subscription_id !== null) ok(episode, 'get_subscription', id);
    ok(episode, 'find_customer_by_email', { email: customer.email });
    expect(episode.hash()).toBe(before);
    expect(episode.hash()).toBe(referenceHash(episode.db));
    // The same hash after a write would mean the hash does not see the database at all.
    ok(episode, 'refund_charge', { charge_id: dup.charge_id, amount: dup.amount_cents / 100 });
    expect(episode.hash()).not.toBe(before);
    expect(episode.hash()).toBe(referenceHash(episode.db));
  });
});

describe('tool contract', () => {
  it('has 15 tools, each with a zod schema whose keys are its params, and the domain shape', () => {
    expect([...BILLING_TOOLSET.tools.keys()]).toEqual([
      'find_customer_by_email',
      'send_verification_code',
      'verify_customer',
      'get_customer_details',
      'list_charges',
      'get_charge_details',
      'refund_charge',
      'list_orders',
      'get_order_details',
      'update_email',
      'get_subscription',
      'list_plans',
      'change_plan',
      'cancel_subscription',
      'handoff',
    ]);
    for (const tool of BILLING_TOOLSET.tools.values()) {
      const schema = BILLING_TOOL_SCHEMAS[tool.name]!;
      expect(Object.keys(schema.shape)).toEqual([...tool.params]);
      const json = z.toJSONSchema(schema, { io: 'input' }) as { properties?: Record<string, { description?: string }> };
      for (const param of tool.params) expect(json.properties?.[param]?.description, `${tool.name}.${param}`).toBeTruthy();
    }
    expect(domain.tools.map((t) => t.name)).toEqual([...BILLING_TOOLSET.tools.keys()]);
    expect(domain.tools.filter((t) => t.kind === 'write').map((t) => t.name)).toEqual([
      'verify_customer',
      'refund_charge',
      'update_email',
      'change_plan',
      'cancel_subscription',
    ]);
    expect(domain.isWrite('refund_charge')).toBe(true);
    expect(domain.isWrite('handoff')).toBe(false);
    expect(domain.isWrite('list_charges')).toBe(false);
    expect(domain).toMatchObject({ name: 'billing', version: 'v1', transferTool: 'handoff', rules: [refundLimitRule] });
  });

  it("refuses unknown tools and wrong arguments with Python's messages", () => {
    const episode = domain.newEpisode();
    expect(episode.call('refund_everything', {})).toEqual({ output: "Error: Tool 'refund_everything' not found.", error: true });
    expect(episode.call('refund_charge', { charge_id: 'ch_1' })).toEqual({
      output: "Error: BillingTools.refund_charge() missing 1 required positional argument: 'amount'",
      error: true,
    });
    expect(episode.call('verify_customer', {})).toEqual({
      output: "Error: BillingTools.verify_customer() missing 2 required positional arguments: 'customer_id' and 'code'",
      error: true,
    });
    expect(episode.call('list_plans', { plan: 'pro' })).toEqual({
      output: "Error: BillingTools.list_plans() got an unexpected keyword argument 'plan'",
      error: true,
    });
  });

  it('refuses arguments of the wrong type with the exact message', () => {
    const episode = domain.newEpisode();
    fails(episode, 'find_customer_by_email', { email: 42 }, E.notString('email'));
    fails(episode, 'verify_customer', { customer_id: customers[0]!.customer_id, code: 123456 }, E.notString('code'));
    fails(episode, 'refund_charge', { charge_id: 'ch_100001', amount: '12.00' }, E.notNumber('amount'));
    fails(episode, 'get_order_details', { order_id: null }, E.notString('order_id'));
  });

  it('never shows the verification code', () => {
    const customer = customers[0]!;
    const episode = verified(customer);
    expect(ok(episode, 'get_customer_details', { customer_id: customer.customer_id })).not.toContain(customer.verification_code);
  });
});

describe('identification and verification', () => {
  const customer = customers[0]!;

  it('finds a customer by e-mail, case-insensitively, and no one else', () => {
    const episode = domain.newEpisode();
    expect(ok(episode, 'find_customer_by_email', { email: ` ${customer.email.toUpperCase()} ` })).toBe(customer.customer_id);
    fails(episode, 'find_customer_by_email', { email: 'nobody@example.com' }, E.emailNotFound('nobody@example.com'));
    expect(E.emailNotFound('nobody@example.com')).toBe('No customer found with email nobody@example.com');
  });

  it('sends the code to the phone on file and verifies the right code only', () => {
    const episode = domain.newEpisode();
    expect(ok(episode, 'send_verification_code', { customer_id: customer.customer_id })).toBe(
      `Verification code sent by text message to the phone number ending in ${customer.phone.slice(-4)}.`,
    );
    fails(episode, 'send_verification_code', { customer_id: 'cus_9' }, 'Customer cus_9 not found');
    fails(episode, 'verify_customer', { customer_id: 'cus_9', code: '000000' }, 'Customer cus_9 not found');
    const wrong = customer.verification_code === '000000' ? '000001' : '000000';
    fails(episode, 'verify_customer', { customer_id: customer.customer_id, code: wrong }, 'Verification code is incorrect');
    expect(ok(episode, 'verify_customer', { customer_id: customer.customer_id, code: ` ${customer.verification_code}` })).toBe(
      `{"customer_id": "${customer.customer_id}", "verified": true}`,
    );
    fails(
      episode,
      'verify_customer',
      { customer_id: customer.customer_id, code: customer.verification_code },
      E.alreadyVerified(customer.customer_id),
    );
    fails(episode, 'send_verification_code', { customer_id: customer.customer_id }, `Customer ${customer.customer_id} is already verified`);
  });

  it('refuses personal data and every write for an unverified customer', () => {
    const { customer: owner, dup } = duplicateOf((c) => c <= AUTONOMOUS_REFUND_LIMIT_CENTS);
    const order = Object.values(db.orders).find((o) => o.customer_id === activeSubscriber.customer_id);
    expect(order, 'the seeded data has an order of an active subscriber').toBeDefined();
    const episode = domain.newEpisode();
    const message = `Customer ${owner.customer_id} is not verified; send a verification code and verify the customer first`;
    expect(E.notVerified(owner.customer_id)).toBe(message);
    const id = { customer_id: owner.customer_id };
    fails(episode, 'get_customer_details', id, message);
    fails(episode, 'list_charges', id, message);
    fails(episode, 'list_orders', id, message);
    fails(episode, 'get_charge_details', { charge_id: dup.charge_id }, message);
    fails(episode, 'refund_charge', { charge_id: dup.charge_id, amount: dup.amount_cents / 100 }, message);
    fails(episode, 'update_email', { ...id, new_email: 'new.address@example.org' }, message);
    fails(episode, 'get_subscription', { customer_id: activeSubscriber.customer_id }, E.notVerified(activeSubscriber.customer_id));
    fails(
      episode,
      'change_plan',
      { customer_id: activeSubscriber.customer_id, plan_id: 'ultra' },
      E.notVerified(activeSubscriber.customer_id),
    );
    fails(episode, 'cancel_subscription', { customer_id: activeSubscriber.customer_id }, E.notVerified(activeSubscriber.customer_id));
    fails(episode, 'get_order_details', { order_id: order!.order_id }, E.notVerified(activeSubscriber.customer_id));
    // Verifying one customer opens nobody else's data.
    const other = verified(customers.find((c) => c.customer_id !== owner.customer_id)!);
    fails(other, 'list_charges', id, message);
  });

  it('reports unknown customers, charges and orders by id', () => {
    const episode = domain.newEpisode();
    fails(episode, 'get_customer_details', { customer_id: 'cus_1' }, 'Customer cus_1 not found');
    fails(episode, 'list_charges', { customer_id: 'cus_1' }, E.customerNotFound('cus_1'));
    fails(episode, 'list_orders', { customer_id: 'cus_1' }, E.customerNotFound('cus_1'));
    fails(episode, 'get_subscription', { customer_id: 'cus_1' }, E.customerNotFound('cus_1'));
    fails(episode, 'get_charge_details', { charge_id: 'ch_1' }, 'Charge ch_1 not found');
    fails(episode, 'refund_charge', { charge_id: 'ch_1', amount: 10 }, E.chargeNotFound('ch_1'));
    fails(episode, 'get_order_details', { order_id: 'ord_1' }, 'Order ord_1 not found');
    fails(episode, 'update_email', { customer_id: 'cus_1', new_email: 'a@b.co' }, E.customerNotFound('cus_1'));
    fails(episode, 'change_plan', { customer_id: 'cus_1', plan_id: 'pro' }, E.customerNotFound('cus_1'));
    fails(episode, 'cancel_subscription', { customer_id: 'cus_1' }, E.customerNotFound('cus_1'));
  });

  it('looks ids up among the records only, never on the prototype of the maps', () => {
    const episode = domain.newEpisode();
    const someone = verified(activeSubscriber);
    const customerId = activeSubscriber.customer_id;
    for (const id of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      fails(episode, 'send_verification_code', { customer_id: id }, E.customerNotFound(id));
      fails(episode, 'verify_customer', { customer_id: id, code: '123456' }, E.customerNotFound(id));
      fails(episode, 'get_customer_details', { customer_id: id }, E.customerNotFound(id));
      fails(episode, 'list_charges', { customer_id: id }, E.customerNotFound(id));
      fails(episode, 'list_orders', { customer_id: id }, E.customerNotFound(id));
      fails(episode, 'get_subscription', { customer_id: id }, E.customerNotFound(id));
      fails(episode, 'update_email', { customer_id: id, new_email: 'a@b.co' }, E.customerNotFound(id));
      fails(episode, 'cancel_subscription', { customer_id: id }, E.customerNotFound(id));
      fails(episode, 'get_charge_details', { charge_id: id }, E.chargeNotFound(id));
      fails(episode, 'refund_charge', { charge_id: id, amount: 10 }, E.chargeNotFound(id));
      fails(episode, 'get_order_details', { order_id: id }, E.orderNotFound(id));
      fails(someone, 'change_plan', { customer_id: customerId, plan_id: id }, E.planNotFound(id));
    }
    expect(E.customerNotFound('constructor')).toBe('Customer constructor not found');
    expect(E.orderNotFound('toString')).toBe('Order toString not found');
    expect(E.chargeNotFound('__proto__')).toBe('Charge __proto__ not found');
  });
});

describe('charges and orders', () => {
  it('lists charges oldest first with amounts as decimal strings, and shows a refund with its charge', () => {
    const owner = db.customers[refundedDup.customer_id]!;
    const episode = verified(owner);
    const listed = JSON.parse(ok(episode, 'list_charges', { customer_id: owner.customer_id })) as { created_at: string; amount: string }[];
    expect(listed).toHaveLength(chargesOf(owner).length);
    expect(listed.map((c) => c.created_at)).toEqual([...listed.map((c) => c.created_at)].sort());
    expect(listed.every((c) => /^\d+\.\d\d$/.test(c.amount))).toBe(true);
    const details = JSON.parse(ok(episode, 'get_charge_details', { charge_id: refundedDup.charge_id })) as Record<string, unknown>;
    expect(details).toMatchObject({
      charge_id: refundedDup.charge_id,
      amount: formatCents(refundedDup.amount_cents),
      status: 'refunded',
      duplicate_of: refundedDup.duplicate_of,
      refund: { refund_id: refundedDup.refund_id, amount: formatCents(refundedDup.amount_cents), reason: 'duplicate_charge' },
    });
  });

  it('shows an order with its items and the charge that paid for it', () => {
    const order = db.orders[genuine.order_id!]!;
    const episode = verified(db.customers[order.customer_id]!);
    const shown = JSON.parse(ok(episode, 'get_order_details', { order_id: order.order_id })) as Record<string, unknown>;
    expect(shown).toMatchObject({ order_id: order.order_id, total: formatCents(order.total_cents), charge_id: order.charge_id });
    const listed = JSON.parse(ok(episode, 'list_orders', { customer_id: order.customer_id })) as { order_id: string }[];
    expect(listed.map((o) => o.order_id)).toContain(order.order_id);
  });
});

describe('refund_charge', () => {
  const limit = duplicateOf((c) => c === AUTONOMOUS_REFUND_LIMIT_CENTS);
  const over = duplicateOf((c) => c === AUTONOMOUS_REFUND_LIMIT_CENTS + 1);

  it('refunds a duplicate of exactly 50.00 and records the refund', () => {
    const episode = verified(limit.customer);
    const refundId = `re_${limit.dup.charge_id.slice(3)}`;
    expect(ok(episode, 'refund_charge', { charge_id: limit.dup.charge_id, amount: 50 })).toBe(
      `{"refund_id": "${refundId}", "charge_id": "${limit.dup.charge_id}", "customer_id": "${limit.customer.customer_id}", ` +
        `"amount": "50.00", "reason": "duplicate_charge", "refunded_on": "2025-06-15"}`,
    );
    expect(episode.db.charges[limit.dup.charge_id]).toMatchObject({ status: 'refunded', refund_id: refundId });
    expect(episode.db.refunds[refundId]).toMatchObject({ amount_cents: 5000, charge_id: limit.dup.charge_id });
    fails(episode, 'refund_charge', { charge_id: limit.dup.charge_id, amount: 50 }, `Charge ${limit.dup.charge_id} is already refunded`);
  });

  it('refuses a duplicate of 50.01: above the autonomous limit', () => {
    const episode = verified(over.customer);
    const message = 'Refund of 50.01 exceeds the autonomous limit of 50.00; hand off to queue_billing';
    expect(E.overLimit('50.01')).toBe(message);
    fails(episode, 'refund_charge', { charge_id: over.dup.charge_id, amount: 50.01 }, message);
  });

  it('refuses originals, genuine charges, refunded duplicates, wrong and malformed amounts', () => {
    const { customer, dup } = duplicateOf((c) => c < AUTONOMOUS_REFUND_LIMIT_CENTS);
    const episode = verified(customer);
    const amount = dup.amount_cents / 100;
    fails(episode, 'refund_charge', { charge_id: dup.duplicate_of, amount }, E.notDuplicate(dup.duplicate_of!));
    expect(E.notDuplicate('ch_1')).toBe('Charge ch_1 is not a duplicate charge; only duplicate charges can be refunded');
    fails(
      episode,
      'refund_charge',
      { charge_id: dup.charge_id, amount: amount - 1 },
      `Amount ${formatCents(dup.amount_cents - 100)} does not match charge ${dup.charge_id} (${formatCents(dup.amount_cents)})`,
    );
    const badAmount = 'amount must be a positive number with at most two decimal places';
    expect(E.badAmount).toBe(badAmount);
    for (const wrong of [0, -5, 12.345, Number.NaN, Number.POSITIVE_INFINITY]) {
      fails(episode, 'refund_charge', { charge_id: dup.charge_id, amount: wrong }, badAmount);
    }
    const owner = verified(db.customers[refundedDup.customer_id]!);
    fails(owner, 'refund_charge', { charge_id: refundedDup.charge_id, amount: 1 }, E.alreadyRefunded(refundedDup.charge_id));
    const genuineOwner = verified(db.customers[genuine.customer_id]!);
    fails(
      genuineOwner,
      'refund_charge',
      { charge_id: genuine.charge_id, amount: genuine.amount_cents / 100 },
      E.notDuplicate(genuine.charge_id),
    );
    // Floats that are whole cents in decimal are accepted (29.99 * 100 is 2998.9999999999995).
    expect(ok(episode, 'refund_charge', { charge_id: dup.charge_id, amount })).toContain(`"amount": "${formatCents(dup.amount_cents)}"`);
  });
});

describe('refund_limit rule', () => {
  const seen = findingsFrom([{ role: 'tool', name: 'get_charge_details', arguments: { charge_id: 'ch_1' }, ok: true, output: '{}' }]);

  it('allows 50.00 and denies 50.01, pointing at the hand-off', () => {
    expect(refundLimitRule).toMatchObject({ id: 'refund_limit', version: 1, tool: 'refund_charge' });
    expect(refundLimitRule.evaluate({ charge_id: 'ch_1', amount: 50 }, seen)).toEqual({ decision: 'allow' });
    expect(refundLimitRule.evaluate({ charge_id: 'ch_1', amount: 12.99 }, seen)).toEqual({ decision: 'allow' });
    const denied = refundLimitRule.evaluate({ charge_id: 'ch_1', amount: 50.01 }, seen);
    expect(denied).toEqual({
      decision: 'deny',
      reason: 'a refund of 50.01 is above the autonomous limit of 50.00; hand off to queue_billing with reason value_threshold',
    });
    if (denied.decision !== 'deny') throw new Error('unreachable');
    expect(ruleVerdictText(refundLimitRule, denied)).toBe(`Refused by rule refund_limit@v1: ${denied.reason}`);
    expect(refundLimitRule.evaluate({ charge_id: 'ch_1', amount: 50.001 }, seen)).toMatchObject({ decision: 'deny' });
    expect(refundLimitRule.evaluate({ charge_id: 'ch_1', amount: 120 }, new Map())).toMatchObject({ decision: 'deny' });
  });

  it('asks for an amount, and for the charge to be looked up first', () => {
    expect(refundLimitRule.evaluate({ charge_id: 'ch_1' }, seen)).toEqual({ decision: 'need_more_info', missing: ['amount'] });
    expect(refundLimitRule.evaluate({ charge_id: 'ch_1', amount: '20' }, seen)).toEqual({
      decision: 'need_more_info',
      missing: ['amount'],
    });
    expect(refundLimitRule.evaluate({ charge_id: 'ch_2', amount: 20 }, seen)).toEqual({
      decision: 'need_more_info',
      missing: ['charge_id (look the charge up with list_charges or get_charge_details first)'],
    });
  });

  it('agrees with the tool on seeded data, with findings from real tool outputs', () => {
    for (const { customer, dup } of [
      duplicateOf((c) => c === AUTONOMOUS_REFUND_LIMIT_CENTS),
      duplicateOf((c) => c === AUTONOMOUS_REFUND_LIMIT_CENTS + 1),
    ]) {
      const episode = verified(customer);
      const items: TranscriptItem[] = [
        {
          role: 'tool',
          name: 'list_charges',
          arguments: { customer_id: customer.customer_id },
          ok: true,
          output: ok(episode, 'list_charges', { customer_id: customer.customer_id }),
        },
      ];
      const args = { charge_id: dup.charge_id, amount: dup.amount_cents / 100 };
      const verdict = refundLimitRule.evaluate(args, findingsFrom(items));
      const result = episode.call('refund_charge', args);
      expect(verdict.decision === 'allow').toBe(!result.error);
      expect(verdict.decision).toBe(dup.amount_cents <= AUTONOMOUS_REFUND_LIMIT_CENTS ? 'allow' : 'deny');
    }
  });
});

describe('update_email', () => {
  const customer = customers[5]!;
  const taken = customers[6]!.email;

  it('changes the address, stored in lower case', () => {
    const episode = verified(customer);
    const shown = JSON.parse(
      ok(episode, 'update_email', { customer_id: customer.customer_id, new_email: ' New.Address@Example.ORG ' }),
    ) as Record<string, unknown>;
    expect(shown).toMatchObject({ customer_id: customer.customer_id, email: 'new.address@example.org', verified: true });
    expect(ok(episode, 'find_customer_by_email', { email: 'new.address@example.org' })).toBe(customer.customer_id);
    fails(episode, 'find_customer_by_email', { email: customer.email }, E.emailNotFound(customer.email));
  });

  it('refuses invalid, unchanged and taken addresses', () => {
    const episode = verified(customer);
    const id = customer.customer_id;
    for (const bad of [
      'no-at-sign.example.com',
      'name@domain',
      'two@@example.com',
      'spa ce@example.com',
      '@example.com',
      'name@.com',
      '',
    ]) {
      fails(episode, 'update_email', { customer_id: id, new_email: bad }, `Invalid email address: ${bad}`);
    }
    fails(
      episode,
      'update_email',
      { customer_id: id, new_email: customer.email.toUpperCase() },
      'The new email is the same as the current email',
    );
    fails(episode, 'update_email', { customer_id: id, new_email: taken }, `Email ${taken} is already used by another customer`);
    fails(episode, 'update_email', { customer_id: id, new_email: 7 }, E.notString('new_email'));
  });
});

describe('subscriptions', () => {
  it('shows the subscription and the plans', () => {
    const sub = db.subscriptions[activeSubscriber.subscription_id!]!;
    const episode = verified(activeSubscriber);
    expect(JSON.parse(ok(episode, 'get_subscription', { customer_id: activeSubscriber.customer_id }))).toMatchObject({
      subscription_id: sub.subscription_id,
      plan_id: sub.plan_id,
      monthly_price: formatCents(sub.price_cents),
      status: 'active',
    });
    expect(ok(domain.newEpisode(), 'list_plans')).toBe(
      '[{"plan_id": "starter", "name": "Starter", "monthly_price": "29.00", "description": "100 Mbps home internet"}, ' +
        '{"plan_id": "plus", "name": "Plus", "monthly_price": "49.00", "description": "500 Mbps home internet"}, ' +
        '{"plan_id": "pro", "name": "Pro", "monthly_price": "69.00", "description": "1 Gbps home internet with a mesh extender"}, ' +
        '{"plan_id": "ultra", "name": "Ultra", "monthly_price": "99.00", "description": "2 Gbps home internet with priority support"}]',
    );
  });

  it('changes the plan and its price, and refuses unknown, same and cancelled', () => {
    const sub = db.subscriptions[activeSubscriber.subscription_id!]!;
    const episode = verified(activeSubscriber);
    const id = activeSubscriber.customer_id;
    fails(episode, 'change_plan', { customer_id: id, plan_id: 'gold' }, 'Plan gold not found');
    fails(
      episode,
      'change_plan',
      { customer_id: id, plan_id: sub.plan_id },
      `Subscription ${sub.subscription_id} is already on plan ${sub.plan_id}`,
    );
    const target = sub.plan_id === 'ultra' ? 'starter' : 'ultra';
    expect(JSON.parse(ok(episode, 'change_plan', { customer_id: id, plan_id: target }))).toMatchObject({
      plan_id: target,
      monthly_price: formatCents(db.plans[target]!.price_cents),
      current_period_end: sub.current_period_end,
    });
    expect(episode.db.subscriptions[sub.subscription_id]).toMatchObject({ plan_id: target, price_cents: db.plans[target]!.price_cents });
  });

  it('cancels once; service runs to the end of the period', () => {
    const sub = db.subscriptions[activeSubscriber.subscription_id!]!;
    const episode = verified(activeSubscriber);
    const id = activeSubscriber.customer_id;
    expect(JSON.parse(ok(episode, 'cancel_subscription', { customer_id: id }))).toMatchObject({
      status: 'cancelled',
      cancelled_on: '2025-06-15',
      current_period_end: sub.current_period_end,
    });
    fails(episode, 'cancel_subscription', { customer_id: id }, `Subscription ${sub.subscription_id} is already cancelled`);
    fails(
      episode,
      'change_plan',
      { customer_id: id, plan_id: sub.plan_id === 'pro' ? 'plus' : 'pro' },
      `Subscription ${sub.subscription_id} is cancelled; a cancelled subscription cannot change plan`,
    );
  });

  it('refuses customers without a subscription, and already cancelled ones', () => {
    const episode = verified(nonSubscriber);
    const message = `Customer ${nonSubscriber.customer_id} has no subscription`;
    expect(E.noSubscription(nonSubscriber.customer_id)).toBe(message);
    fails(episode, 'get_subscription', { customer_id: nonSubscriber.customer_id }, message);
    fails(episode, 'change_plan', { customer_id: nonSubscriber.customer_id, plan_id: 'pro' }, message);
    fails(episode, 'cancel_subscription', { customer_id: nonSubscriber.customer_id }, message);
    const cancelled = verified(cancelledSubscriber);
    fails(
      cancelled,
      'cancel_subscription',
      { customer_id: cancelledSubscriber.customer_id },
      E.alreadyCancelled(cancelledSubscriber.subscription_id!),
    );
  });
});

describe('handoff', () => {
  const args = { target: 'queue_billing', reason: 'value_threshold', summary: 'Refund of 72.40 above the limit.' };

  it('hands off to any domain queue, for any of the harness reasons, and changes nothing', () => {
    const episode = domain.newEpisode();
    const before = episode.hash();
    for (const target of BILLING_QUEUE_IDS) expect(ok(episode, 'handoff', { ...args, target })).toBe('Transfer successful');
    for (const reason of BILLING_HANDOFF_REASONS) expect(ok(episode, 'handoff', { ...args, reason })).toBe('Transfer successful');
    expect(episode.hash()).toBe(before);
    expect([...BILLING_HANDOFF_REASONS]).toEqual([...MODEL_HANDOFF_REASONS]);
    expect(callDomainTool(BILLING_TOOLSET, freezeDb(generateBillingDb(1)), 'handoff', args)).toEqual({
      output: 'Transfer successful',
      error: false,
    });
  });

  it('refuses unknown targets and reasons and an empty summary', () => {
    const episode = domain.newEpisode();
    fails(
      episode,
      'handoff',
      { ...args, target: 'queue_general' },
      'Unknown hand-off target queue_general; valid targets: queue_billing, queue_complaints, queue_bereavement, queue_legal, queue_account_security',
    );
    fails(
      episode,
      'handoff',
      { ...args, reason: 'because' },
      'Unknown hand-off reason because; valid reasons: customer_request, policy_topic, safety, no_capability, value_threshold, ' +
        'tool_failures, loop_detected, frustration_and_loop, agent_decision',
    );
    fails(episode, 'handoff', { ...args, summary: '  ' }, 'summary must not be empty');
    fails(episode, 'handoff', { ...args, target: ['queue_billing'] }, E.notString('target'));
    expect(episode.call('handoff', { target: 'queue_billing', reason: 'customer_request' }).output).toBe(
      "Error: BillingTools.handoff() missing 1 required positional argument: 'summary'",
    );
  });
});

describe('queues and policy', () => {
  it('has five queues, each with a description and skills, named in the policy', () => {
    expect(BILLING_QUEUES.map((q) => q.id)).toEqual([
      'queue_billing',
      'queue_complaints',
      'queue_bereavement',
      'queue_legal',
      'queue_account_security',
    ]);
    for (const queue of BILLING_QUEUES) {
      expect(queue.description.length).toBeGreaterThan(20);
      expect(queue.skills.length).toBeGreaterThan(0);
      expect(BILLING_POLICY).toContain(`\`${queue.id}\``);
    }
    expect(domain.queues).toBe(BILLING_QUEUES);
  });

  it('states the limit, the date, verification and every hand-off reason the tasks use', () => {
    expect(domain.policy).toBe(BILLING_POLICY);
    expect(BILLING_POLICY).toContain('Autonomous limit: 50.00');
    expect(BILLING_POLICY).toContain('Today is 2025-06-15');
    expect(BILLING_POLICY).toContain('verify_customer');
    for (const reason of ['value_threshold', 'policy_topic', 'customer_request', 'no_capability']) expect(BILLING_POLICY).toContain(reason);
    for (const tool of BILLING_TOOLSET.tools.keys()) expect(BILLING_POLICY, tool).toContain(`\`${tool}\``);
  });
});
