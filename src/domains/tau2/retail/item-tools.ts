/** The retail write tools on an order's items: exchange, modify, return. */
import { ToolError, type DomainTool } from '../../domain-tool.js';
import { pythonRound2 } from '../python-math.js';
import {
  getOrder,
  getPaymentMethod,
  getUser,
  getVariant,
  isGiftCard,
  type RetailDb,
  type RetailOrder,
  type RetailVariant,
} from './retail-db.js';
import { countOf, idList, orderModel, printModel, pythonStr, pythonTypeName } from './retail-output.js';

/** The ids of `wanted` that the order holds fewer times than listed, first one first. */
function firstMissing(order: RetailOrder, wanted: readonly unknown[]): { id: unknown } | undefined {
  const held = order.items.map((item) => item.item_id);
  const index = wanted.findIndex((w) => countOf(wanted, w) > countOf(held, w));
  return index < 0 ? undefined : { id: wanted[index] };
}

/** Python's `sorted` for a list of ids (strings by code point, numbers numerically). */
function pythonSorted(list: readonly unknown[]): string[] {
  return [...list].sort((a, b) => {
    if (typeof a !== typeof b)
      throw new ToolError(`'<' not supported between instances of '${pythonTypeName(a)}' and '${pythonTypeName(b)}'`);
    const x = a as string;
    const y = b as string;
    return x < y ? -1 : x > y ? 1 : 0;
  }) as string[];
}

/** The order item a pair refers to: the first whose id matches now (`Item {id} not found`). */
function itemOf(order: RetailOrder, itemId: unknown) {
  const item = order.items.find((i) => i.item_id === itemId);
  if (!item) throw new ToolError(`Item ${pythonStr(itemId)} not found`);
  return item;
}

/** Checks each (old, new) pair and sums new − old prices in list order (unrounded). */
function priceDifference(
  db: RetailDb,
  order: RetailOrder,
  itemIds: readonly unknown[],
  newItemIds: readonly unknown[],
  distinct: boolean,
): { diff: number; variant: RetailVariant | undefined } {
  let diff = 0;
  let variant: RetailVariant | undefined;
  for (let i = 0; i < Math.min(itemIds.length, newItemIds.length); i++) {
    const [itemId, newItemId] = [itemIds[i], newItemIds[i]];
    if (distinct && itemId === newItemId) throw new ToolError('The new item id should be different from the old item id');
    const item = itemOf(order, itemId);
    variant = getVariant(db, item.product_id, newItemId);
    if (!variant.available) throw new ToolError(`New item ${pythonStr(newItemId)} not found or available`);
    diff += variant.price - item.price;
  }
  return { diff, variant };
}

/** `exchange_delivered_order_items(order_id, item_ids, new_item_ids, payment_method_id)`. */
export const exchangeDeliveredOrderItems: DomainTool<RetailDb> = {
  name: 'exchange_delivered_order_items',
  kind: 'write',
  description:
    'Exchange items in a delivered order to new items of the same product type. ' +
    'For a delivered order, return or exchange can be only done once by the agent.',
  params: ['order_id', 'item_ids', 'new_item_ids', 'payment_method_id'],
  run: (db, args) => {
    const order = getOrder(db, args['order_id']);
    if (order.status !== 'delivered') throw new ToolError('Non-delivered order cannot be exchanged');
    const itemIds = idList(args['item_ids']);
    const missing = firstMissing(order, itemIds);
    if (missing) throw new ToolError(`Number of ${pythonStr(missing.id)} not found.`);
    const newItemIds = idList(args['new_item_ids']);
    if (itemIds.length !== newItemIds.length) throw new ToolError('The number of items to be exchanged should match.');
    const diff = pythonRound2(priceDifference(db, order, itemIds, newItemIds, false).diff);
    const method = getPaymentMethod(db, order.user_id, args['payment_method_id']);
    if (isGiftCard(method) && method.balance < diff) {
      throw new ToolError('Insufficient gift card balance to pay for the price difference');
    }
    order.status = 'exchange requested';
    order.exchange_items = pythonSorted(itemIds);
    order.exchange_new_items = pythonSorted(newItemIds);
    order.exchange_payment_method_id = args['payment_method_id'] as string;
    order.exchange_price_difference = diff;
    return printModel(orderModel(order));
  },
};

/**
 * `modify_pending_order_items(order_id, item_ids, new_item_ids, payment_method_id)`. Reproduces
 * upstream's bug: every modified item gets the price and options of the LAST pair's new variant.
 */
export const modifyPendingOrderItems: DomainTool<RetailDb> = {
  name: 'modify_pending_order_items',
  kind: 'write',
  description:
    'Modify items in a pending order to new items of the same product type. For a pending order, this function can only be called once.',
  params: ['order_id', 'item_ids', 'new_item_ids', 'payment_method_id'],
  run: (db, args) => {
    const order = getOrder(db, args['order_id']);
    if (order.status !== 'pending') throw new ToolError('Non-pending order cannot be modified');
    const itemIds = idList(args['item_ids']);
    const missing = firstMissing(order, itemIds);
    if (missing) throw new ToolError(`${pythonStr(missing.id)} not found`);
    const newItemIds = idList(args['new_item_ids']);
    if (itemIds.length !== newItemIds.length) throw new ToolError('The number of items to be exchanged should match');
    const { diff, variant } = priceDifference(db, order, itemIds, newItemIds, true);
    const paymentMethodId = args['payment_method_id'];
    const method = getPaymentMethod(db, order.user_id, paymentMethodId);
    if (isGiftCard(method) && method.balance < diff) throw new ToolError('Insufficient gift card balance to pay for the new item');
    order.payment_history.push({
      transaction_type: diff > 0 ? 'payment' : 'refund',
      amount: Math.abs(diff),
      payment_method_id: paymentMethodId as string,
    });
    if (isGiftCard(method)) method.balance = pythonRound2(method.balance - diff);
    itemIds.forEach((itemId, i) => {
      const item = itemOf(order, itemId);
      item.item_id = newItemIds[i] as string;
      if (variant) {
        item.price = variant.price;
        item.options = variant.options;
      }
    });
    order.status = 'pending (item modified)';
    return printModel(orderModel(order));
  },
};

/** `return_delivered_order_items(order_id, item_ids, payment_method_id)`: records the request. */
export const returnDeliveredOrderItems: DomainTool<RetailDb> = {
  name: 'return_delivered_order_items',
  kind: 'write',
  description: "Return some items of a delivered order. The order status will be changed to 'return requested'.",
  params: ['order_id', 'item_ids', 'payment_method_id'],
  run: (db, args) => {
    const order = getOrder(db, args['order_id']);
    if (order.status !== 'delivered') throw new ToolError('Non-delivered order cannot be returned');
    const user = getUser(db, order.user_id);
    const paymentMethodId = args['payment_method_id'];
    const method = getPaymentMethod(db, user.user_id, paymentMethodId);
    if (!isGiftCard(method)) {
      const first = order.payment_history[0];
      if (!first) throw new ToolError('list index out of range');
      if (paymentMethodId !== first.payment_method_id) throw new ToolError('Payment method should be the original payment method');
    }
    const itemIds = idList(args['item_ids']);
    if (firstMissing(order, itemIds)) throw new ToolError('Some item not found');
    order.status = 'return requested';
    order.return_items = pythonSorted(itemIds);
    order.return_payment_method_id = paymentMethodId as string;
    return printModel(orderModel(order));
  },
};
