import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { canonicalDbHash } from '../src/domains/tau2/canonical-db.js';
import {
  cloneRetailDb,
  loadRetailDb,
  RETAIL_TOOLS,
  RETAIL_TOOLSET,
  retailToolset,
  type RetailDb,
} from '../src/domains/tau2/retail/index.js';
import { pythonRound2 } from '../src/domains/tau2/python-math.js';
import { callDomainTool } from '../src/domains/domain-tool.js';
import { tau2DirForTests } from './support/tau2-dir.js';

const dbText = readFileSync(join(tau2DirForTests(), 'retail', 'db.json'), 'utf8');
const initial = loadRetailDb(dbText);

let db: RetailDb;
beforeEach(() => {
  db = cloneRetailDb(initial);
});

const call = (name: string, args: Record<string, unknown> = {}) => callDomainTool(RETAIL_TOOLSET, db, name, args);
/** Calls a tool that must succeed; returns its output. */
const ok = (name: string, args: Record<string, unknown> = {}) => {
  const result = call(name, args);
  expect(result.error, result.output).toBe(false);
  return result.output;
};
/** Calls a tool that must fail without changing the database; returns its output. */
const fails = (name: string, args: Record<string, unknown> = {}) => {
  const before = canonicalDbHash('retail', db);
  const result = call(name, args);
  expect(result.error).toBe(true);
  expect(canonicalDbHash('retail', db)).toBe(before);
  return result.output;
};
const order = (id: string) => db.orders[id]!;
const giftCardBalance = (userId: string, id: string) => {
  const method = db.users[userId]!.payment_methods[id]!;
  return method.source === 'gift_card' ? method.balance : undefined;
};

// Fixtures from the real db.json.
const PENDING_GIFT = '#W6779827'; // ethan_lopez_6291, paid 4079.45 with gift_card_7219486 (balance 49.0)
const PENDING_CARD = '#W8367380'; // ava_nguyen_6646, paid 1003.22 with credit_card_5683823; gift_card_1994993 (78.0)
const DELIVERED = '#W4250821'; // sophia_jackson_6355, paid with credit_card_8041020; gift_card_6052478 (10.0)
const DELIVERED_DUP = '#W3977493'; // holds item 7533802601 twice
const PROCESSED = '#W2611340';
const ADDRESS = { address1: '1 Main St', address2: 'Apt 2', city: 'Austin', state: 'TX', country: 'USA', zip: '78701' };

describe('toolsets', () => {
  it('has the 16 current tools, and the release lacks get_item_details', () => {
    expect(RETAIL_TOOLS.size).toBe(16);
    const release = retailToolset('release-37199f3');
    expect(release.tools.size).toBe(15);
    expect(release.tools.has('get_item_details')).toBe(false);
    expect(callDomainTool(release, db, 'get_item_details', { item_id: '7706410293' })).toEqual({
      output: "Error: Tool 'get_item_details' not found.",
      error: true,
    });
  });

  it('reports argument errors with the RetailTools class name', () => {
    expect(fails('get_user_details')).toBe("Error: RetailTools.get_user_details() missing 1 required positional argument: 'user_id'");
    expect(fails('get_user_details', { user_id: 'x', extra: 1 })).toBe(
      "Error: RetailTools.get_user_details() got an unexpected keyword argument 'extra'",
    );
  });
});

describe('calculate', () => {
  it.each([
    ['2 + 2', '4.0'],
    ['3131.1 + 4777.75 + 367.38', '8276.23'],
    ['155.33 - 147.05 + 268.77 - 235.13', '41.92'],
    ['1/3', '0.33'],
    ['0.125', '0.12'],
    ['0.375', '0.38'],
    ['2.675', '2.67'],
    ['-2**2', '-4.0'],
    ['2 ** -1', '0.5'],
    ['-7 // 2', '-4.0'],
    ['10**20', '1e+20'],
    [' ( 1 + 2 ) * 3 ', '9.0'],
  ])('%s = %s', (expression, expected) => {
    expect(ok('calculate', { expression })).toBe(expected);
  });

  it.each([
    ['2 x 3', 'Invalid characters in expression'],
    ['1/0', 'division by zero'],
    ['1.0/0', 'float division by zero'],
    ['1//0', 'integer division or modulo by zero'],
    ['(1 + 2', "'(' was never closed (<string>, line 1)"],
    ['1 + 2)', "unmatched ')' (<string>, line 1)"],
    ['1 2', 'invalid syntax (<string>, line 1)'],
    ['(1 2)', 'invalid syntax. Perhaps you forgot a comma? (<string>, line 1)'],
    ['2 (3)', "'int' object is not callable"],
    ['007', 'leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)'],
    ['()', "float() argument must be a string or a real number, not 'tuple'"],
  ])('%s fails with %s', (expression, message) => {
    expect(fails('calculate', { expression })).toBe(`Error: ${message}`);
  });

  it("rounds like Python's round(x, 2): the exact binary value, ties to even", () => {
    expect([0.125, 0.375, 2.675, 1.005, -0.125, 41.91999999999999, -0.001].map(pythonRound2)).toEqual([
      0.12, 0.38, 2.67, 1, -0.12, 41.92, -0,
    ]);
  });
});

describe('look-ups', () => {
  it('find_user_id_by_email is case-insensitive', () => {
    expect(ok('find_user_id_by_email', { email: 'Ethan.Lopez8943@EXAMPLE.com' })).toBe('ethan_lopez_6291');
    expect(fails('find_user_id_by_email', { email: 'nobody@example.com' })).toBe('Error: User not found');
  });

  it('find_user_id_by_name_zip matches names case-insensitively and the zip exactly', () => {
    expect(ok('find_user_id_by_name_zip', { first_name: 'ETHAN', last_name: 'lopez', zip: '43275' })).toBe('ethan_lopez_6291');
    expect(fails('find_user_id_by_name_zip', { first_name: 'Ethan', last_name: 'Lopez', zip: '43276' })).toBe('Error: User not found');
  });

  it('get_order_details prints every field in model order, nulls included', () => {
    const output = ok('get_order_details', { order_id: PENDING_GIFT });
    expect(Object.keys(JSON.parse(output) as object)).toEqual([
      'order_id',
      'user_id',
      'address',
      'items',
      'status',
      'fulfillments',
      'payment_history',
      'cancel_reason',
      'exchange_items',
      'exchange_new_items',
      'exchange_payment_method_id',
      'exchange_price_difference',
      'return_items',
      'return_payment_method_id',
    ]);
    expect(output).toContain(
      '"payment_history": [{"transaction_type": "payment", "amount": 4079.45, "payment_method_id": "gift_card_7219486"}]',
    );
    expect(fails('get_order_details', { order_id: 'W6779827' })).toBe('Error: Order not found');
  });

  it('get_user_details prints gift card balances as floats', () => {
    expect(ok('get_user_details', { user_id: 'ethan_lopez_6291' })).toContain(
      '"gift_card_7219486": {"source": "gift_card", "id": "gift_card_7219486", "balance": 49.0}',
    );
    expect(fails('get_user_details', { user_id: 'constructor' })).toBe('Error: User not found');
  });

  it("get_product_details keeps db.json's variant order (digit keys would reorder in JavaScript)", () => {
    const output = ok('get_product_details', { product_id: '1656367028' });
    expect(
      output.startsWith('{"name": "Mechanical Keyboard", "product_id": "1656367028", "variants": {"9690244451": {"item_id": "9690244451"'),
    ).toBe(true);
    // The order Python's json.load keeps (not numeric order).
    expect([...output.matchAll(/"item_id": "(\d+)"/g)].map((m) => m[1])).toEqual(
      '9690244451 7706410293 3616838507 8484921793 1340995114 6342039236 1421289881 7867398203 4648814700 5222576926 4402162122 1151293680 2299424241 4843487907 9025753381 6439196450 9991484137 9665000388 9570044148 7658724607'.split(
        ' ',
      ),
    );
    expect(fails('get_product_details', { product_id: '7706410293' })).toBe('Error: Product not found');
  });

  it('get_item_details finds a variant in any product', () => {
    expect(ok('get_item_details', { item_id: '7706410293' })).toBe(
      '{"item_id": "7706410293", "options": {"switch type": "clicky", "backlight": "none", "size": "full size"}, "available": true, "price": 269.16}',
    );
    expect(fails('get_item_details', { item_id: '1656367028' })).toBe('Error: Item not found');
  });

  it('list_all_product_types lists the 50 products by sorted name', () => {
    const types = JSON.parse(ok('list_all_product_types')) as Record<string, string>;
    expect(Object.keys(types)).toHaveLength(50);
    expect(Object.keys(types)).toEqual(Object.keys(types).sort());
    expect(types['Mechanical Keyboard']).toBe('1656367028');
  });

  it('transfer_to_human_agents succeeds', () => {
    expect(ok('transfer_to_human_agents', { summary: 'help' })).toBe('Transfer successful');
  });
});

describe('cancel_pending_order', () => {
  it('checks the order, exact pending status, then the reason', () => {
    expect(fails('cancel_pending_order', { order_id: '#W0000000', reason: 'nope' })).toBe('Error: Order not found');
    expect(fails('cancel_pending_order', { order_id: PROCESSED, reason: 'nope' })).toBe('Error: Non-pending order cannot be cancelled');
    expect(fails('cancel_pending_order', { order_id: PENDING_GIFT, reason: 'changed my mind' })).toBe('Error: Invalid reason');
  });

  it('refunds every payment and credits gift cards at once', () => {
    ok('cancel_pending_order', { order_id: PENDING_GIFT, reason: 'ordered by mistake' });
    const o = order(PENDING_GIFT);
    expect(o.status).toBe('cancelled');
    expect(o.cancel_reason).toBe('ordered by mistake');
    expect(o.payment_history.at(-1)).toEqual({ transaction_type: 'refund', amount: 4079.45, payment_method_id: 'gift_card_7219486' });
    expect(giftCardBalance('ethan_lopez_6291', 'gift_card_7219486')).toBe(4128.45);
  });

  it('keeps gift-card credits made before a payment method lookup fails (upstream mutates in place)', () => {
    const o = order(PENDING_GIFT);
    o.payment_history.push({ transaction_type: 'payment', amount: 10, payment_method_id: 'credit_card_0000000' });
    expect(call('cancel_pending_order', { order_id: PENDING_GIFT, reason: 'no longer needed' })).toEqual({
      output: 'Error: Payment method not found',
      error: true,
    });
    // The first entry (gift_card_7219486, 4079.45) was credited before the second failed.
    expect(giftCardBalance('ethan_lopez_6291', 'gift_card_7219486')).toBe(4128.45);
    expect(o.status).toBe('pending');
    expect(o.cancel_reason).toBeNull();
    expect(o.payment_history).toHaveLength(2);
  });

  it('refuses a pending (item modified) order', () => {
    ok('modify_pending_order_items', {
      order_id: PENDING_CARD,
      item_ids: ['2444431651'],
      new_item_ids: ['8068777068'],
      payment_method_id: 'credit_card_5683823',
    });
    expect(fails('cancel_pending_order', { order_id: PENDING_CARD, reason: 'no longer needed' })).toBe(
      'Error: Non-pending order cannot be cancelled',
    );
  });
});

describe('exchange_delivered_order_items', () => {
  const base = { order_id: DELIVERED, item_ids: ['5222576926'], new_item_ids: ['7706410293'], payment_method_id: 'credit_card_8041020' };

  it('fails in upstream check order with the exact texts', () => {
    expect(fails('exchange_delivered_order_items', { ...base, order_id: '#W0' })).toBe('Error: Order not found');
    expect(fails('exchange_delivered_order_items', { ...base, order_id: PENDING_GIFT })).toBe(
      'Error: Non-delivered order cannot be exchanged',
    );
    expect(fails('exchange_delivered_order_items', { ...base, item_ids: ['1234567890'] })).toBe('Error: Number of 1234567890 not found.');
    expect(fails('exchange_delivered_order_items', { ...base, item_ids: ['5222576926', '5222576926'] })).toBe(
      'Error: Number of 5222576926 not found.',
    );
    expect(fails('exchange_delivered_order_items', { ...base, new_item_ids: [] })).toBe(
      'Error: The number of items to be exchanged should match.',
    );
    expect(fails('exchange_delivered_order_items', { ...base, new_item_ids: ['2444431651'] })).toBe('Error: Variant not found');
    expect(fails('exchange_delivered_order_items', { ...base, new_item_ids: ['9690244451'] })).toBe(
      'Error: New item 9690244451 not found or available',
    );
    expect(fails('exchange_delivered_order_items', { ...base, payment_method_id: 'credit_card_0' })).toBe(
      'Error: Payment method not found',
    );
    expect(fails('exchange_delivered_order_items', { ...base, payment_method_id: 'gift_card_6052478' })).toBe(
      'Error: Insufficient gift card balance to pay for the price difference',
    );
  });

  it('accepts duplicates the order holds, and records the exchange without moving money', () => {
    const dup = db.orders[DELIVERED_DUP]!;
    const product = db.products[dup.items[1]!.product_id]!;
    const other = Object.values(product.variants).find((v) => v.available && v.item_id !== '7533802601')!;
    ok('exchange_delivered_order_items', {
      order_id: DELIVERED_DUP,
      item_ids: ['7533802601', '7533802601'],
      new_item_ids: [other.item_id, '7533802601'],
      payment_method_id: dup.payment_history[0]!.payment_method_id,
    });
    expect(dup.status).toBe('exchange requested');
    expect(dup.exchange_new_items).toEqual([other.item_id, '7533802601'].sort());
    expect(dup.exchange_price_difference).toBe(pythonRound2(other.price - 48.59));
    expect(dup.payment_history).toHaveLength(1);
  });

  it('rounds the difference and sorts both lists', () => {
    const output = ok('exchange_delivered_order_items', {
      ...base,
      item_ids: ['9970989750', '5222576926'],
      new_item_ids: ['4602305039', '3616838507'],
    });
    const o = order(DELIVERED);
    expect(o.exchange_items).toEqual(['5222576926', '9970989750']);
    expect(o.exchange_new_items).toEqual(['3616838507', '4602305039']);
    expect(o.exchange_price_difference).toBe(-32.22);
    expect(output).toContain('"exchange_payment_method_id": "credit_card_8041020", "exchange_price_difference": -32.22');
  });
});

describe('modify_pending_order_items', () => {
  const base = {
    order_id: PENDING_GIFT,
    item_ids: ['7896397433'],
    new_item_ids: ['6171242004'],
    payment_method_id: 'gift_card_7219486',
  };

  it('fails in upstream check order with the exact texts', () => {
    expect(fails('modify_pending_order_items', { ...base, order_id: '#W0000000' })).toBe('Error: Order not found');
    expect(fails('modify_pending_order_items', { ...base, order_id: DELIVERED })).toBe('Error: Non-pending order cannot be modified');
    expect(fails('modify_pending_order_items', { ...base, item_ids: ['1234567890'] })).toBe('Error: 1234567890 not found');
    expect(fails('modify_pending_order_items', { ...base, new_item_ids: [] })).toBe(
      'Error: The number of items to be exchanged should match',
    );
    expect(fails('modify_pending_order_items', { ...base, new_item_ids: ['7896397433'] })).toBe(
      'Error: The new item id should be different from the old item id',
    );
    expect(fails('modify_pending_order_items', { ...base, new_item_ids: ['7706410293'] })).toBe('Error: Variant not found');
    expect(fails('modify_pending_order_items', { ...base, new_item_ids: ['8140269513'] })).toBe(
      'Error: New item 8140269513 not found or available',
    );
    expect(fails('modify_pending_order_items', { ...base, payment_method_id: 'paypal_0' })).toBe('Error: Payment method not found');
    expect(fails('modify_pending_order_items', { ...base, new_item_ids: ['2444431651'] })).toBe(
      'Error: Insufficient gift card balance to pay for the new item',
    );
  });

  it('gives every modified item the price and options of the last new variant (upstream bug)', () => {
    ok('modify_pending_order_items', {
      ...base,
      item_ids: ['7896397433', '1323134954'],
      new_item_ids: ['6171242004', '3020722515'],
      payment_method_id: 'credit_card_9789590',
    });
    const o = order(PENDING_GIFT);
    const coffee = db.products['7996920482']!.variants['3020722515']!;
    expect(o.items[0]).toMatchObject({ name: 'Dumbbell Set', item_id: '6171242004', price: 238.64, options: coffee.options });
    expect(o.items[2]).toMatchObject({ item_id: '3020722515', price: 238.64 });
    expect(o.status).toBe('pending (item modified)');
    // Unrounded: 462.84 − 457.81 + 238.64 − 236.95 in float arithmetic.
    expect(o.payment_history.at(-1)).toEqual({
      transaction_type: 'payment',
      amount: 462.84 - 457.81 + (238.64 - 236.95),
      payment_method_id: 'credit_card_9789590',
    });
  });

  it('refunds a cheaper item to a gift card, balance rounded to cents', () => {
    ok('modify_pending_order_items', { ...base, item_ids: ['1323134954'], new_item_ids: ['1349017811'] });
    expect(order(PENDING_GIFT).payment_history.at(-1)).toMatchObject({ transaction_type: 'refund' });
    expect(giftCardBalance('ethan_lopez_6291', 'gift_card_7219486')).toBe(pythonRound2(49 - (226.05 - 236.95)));
    expect(fails('modify_pending_order_items', base)).toBe('Error: Non-pending order cannot be modified');
  });
});

describe('modify_pending_order_payment', () => {
  it('fails in upstream check order with the exact texts', () => {
    expect(fails('modify_pending_order_payment', { order_id: '#W0000000', payment_method_id: 'x' })).toBe('Error: Order not found');
    expect(fails('modify_pending_order_payment', { order_id: DELIVERED, payment_method_id: 'x' })).toBe(
      'Error: Non-pending order cannot be modified',
    );
    expect(fails('modify_pending_order_payment', { order_id: PENDING_CARD, payment_method_id: 'x' })).toBe(
      'Error: Payment method not found',
    );
    expect(fails('modify_pending_order_payment', { order_id: PENDING_CARD, payment_method_id: 'credit_card_5683823' })).toBe(
      'Error: The new payment method should be different from the current one',
    );
    expect(fails('modify_pending_order_payment', { order_id: PENDING_CARD, payment_method_id: 'gift_card_1994993' })).toBe(
      'Error: Insufficient gift card balance to pay for the order',
    );
  });

  it('needs exactly one payment (a modified order has two)', () => {
    ok('modify_pending_order_items', {
      order_id: PENDING_CARD,
      item_ids: ['2444431651'],
      new_item_ids: ['8068777068'],
      payment_method_id: 'credit_card_5683823',
    });
    expect(fails('modify_pending_order_payment', { order_id: PENDING_CARD, payment_method_id: 'gift_card_1994993' })).toBe(
      'Error: There should be exactly one payment for a pending order',
    );
  });

  it('moves the payment and refunds the old gift card', () => {
    ok('modify_pending_order_payment', { order_id: PENDING_GIFT, payment_method_id: 'credit_card_9789590' });
    expect(order(PENDING_GIFT).payment_history.slice(1)).toEqual([
      { transaction_type: 'payment', amount: 4079.45, payment_method_id: 'credit_card_9789590' },
      { transaction_type: 'refund', amount: 4079.45, payment_method_id: 'gift_card_7219486' },
    ]);
    expect(giftCardBalance('ethan_lopez_6291', 'gift_card_7219486')).toBe(4128.45);
  });
});

describe('address changes', () => {
  it('modify_pending_order_address needs a (loosely) pending order', () => {
    expect(fails('modify_pending_order_address', { order_id: '#W0', ...ADDRESS })).toBe('Error: Order not found');
    expect(fails('modify_pending_order_address', { order_id: DELIVERED, ...ADDRESS })).toBe('Error: Non-pending order cannot be modified');
    ok('modify_pending_order_items', {
      order_id: PENDING_CARD,
      item_ids: ['2444431651'],
      new_item_ids: ['8068777068'],
      payment_method_id: 'credit_card_5683823',
    });
    const output = ok('modify_pending_order_address', { order_id: PENDING_CARD, ...ADDRESS });
    expect(output).toContain(
      '"address": {"address1": "1 Main St", "address2": "Apt 2", "city": "Austin", "country": "USA", "state": "TX", "zip": "78701"}',
    );
  });

  it('modify_user_address replaces the default address', () => {
    expect(fails('modify_user_address', { user_id: 'nobody', ...ADDRESS })).toBe('Error: User not found');
    ok('modify_user_address', { user_id: 'ava_nguyen_6646', ...ADDRESS });
    expect(db.users['ava_nguyen_6646']!.address).toEqual(ADDRESS);
  });
});

describe('return_delivered_order_items', () => {
  const base = { order_id: DELIVERED, item_ids: ['9970989750', '5222576926'], payment_method_id: 'credit_card_8041020' };

  it('fails in upstream check order with the exact texts', () => {
    expect(fails('return_delivered_order_items', { ...base, order_id: '#W0000000' })).toBe('Error: Order not found');
    expect(fails('return_delivered_order_items', { ...base, order_id: PENDING_GIFT })).toBe(
      'Error: Non-delivered order cannot be returned',
    );
    expect(fails('return_delivered_order_items', { ...base, payment_method_id: 'gift_card_0' })).toBe('Error: Payment method not found');
    expect(fails('return_delivered_order_items', { ...base, payment_method_id: 'paypal_7425862' })).toBe(
      'Error: Payment method should be the original payment method',
    );
    expect(fails('return_delivered_order_items', { ...base, item_ids: ['9970989750', '9970989750'] })).toBe('Error: Some item not found');
  });

  it("looks up the order's user", () => {
    delete db.users['sophia_jackson_6355'];
    expect(fails('return_delivered_order_items', { ...base, payment_method_id: 'gift_card_0' })).toBe('Error: User not found');
  });

  it('records the request (sorted ids) without a refund; any gift card is allowed', () => {
    ok('return_delivered_order_items', { ...base, payment_method_id: 'gift_card_6052478' });
    const o = order(DELIVERED);
    expect(o.status).toBe('return requested');
    expect(o.return_items).toEqual(['5222576926', '9970989750']);
    expect(o.return_payment_method_id).toBe('gift_card_6052478');
    expect(o.payment_history).toHaveLength(1);
    expect(giftCardBalance('sophia_jackson_6355', 'gift_card_6052478')).toBe(10);
  });
});
