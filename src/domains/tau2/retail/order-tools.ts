/** The retail write tools on whole orders and users: cancel, address and payment changes. */
import { ToolError, type DomainTool } from '../../domain-tool.js';
import { pythonRound2 } from '../python-math.js';
import { getOrder, getPaymentMethod, getUser, isGiftCard, type RetailDb, type RetailOrder, type RetailPayment } from './retail-db.js';
import { addressArgument, orderModel, printModel, userModel } from './retail-output.js';

const ADDRESS_PARAMS = ['address1', 'address2', 'city', 'state', 'country', 'zip'] as const;

/** The loose check: the status contains `pending` (so `pending (item modified)` passes). */
const isPending = (order: RetailOrder) => order.status.includes('pending');

/** `cancel_pending_order(order_id, reason)`: refunds every payment; gift cards at once. */
export const cancelPendingOrder: DomainTool<RetailDb> = {
  name: 'cancel_pending_order',
  kind: 'write',
  description:
    'Cancel a pending order. If the order is already processed or delivered, it cannot be cancelled. ' +
    "The refund will be added to the user's gift card balance immediately if the payment was made using a gift card.",
  params: ['order_id', 'reason'],
  run: (db, { order_id, reason }) => {
    const order = getOrder(db, order_id);
    if (order.status !== 'pending') throw new ToolError('Non-pending order cannot be cancelled');
    if (reason !== 'no longer needed' && reason !== 'ordered by mistake') throw new ToolError('Invalid reason');
    const refunds: RetailPayment[] = [];
    for (const payment of order.payment_history) {
      refunds.push({ transaction_type: 'refund', amount: payment.amount, payment_method_id: payment.payment_method_id });
      // A failed lookup here leaves earlier gift-card credits applied, as upstream does.
      const user = getUser(db, order.user_id);
      const method = getPaymentMethod(db, user.user_id, payment.payment_method_id);
      if (isGiftCard(method)) method.balance = pythonRound2(method.balance + payment.amount);
    }
    order.status = 'cancelled';
    order.cancel_reason = reason;
    order.payment_history.push(...refunds);
    return printModel(orderModel(order));
  },
};

/** `modify_pending_order_address(order_id, address1, …, zip)`: loose pending check. */
export const modifyPendingOrderAddress: DomainTool<RetailDb> = {
  name: 'modify_pending_order_address',
  kind: 'write',
  description: 'Modify the shipping address of a pending order.',
  params: ['order_id', ...ADDRESS_PARAMS],
  run: (db, args) => {
    const order = getOrder(db, args['order_id']);
    if (!isPending(order)) throw new ToolError('Non-pending order cannot be modified');
    order.address = addressArgument(args);
    return printModel(orderModel(order));
  },
};

/** `modify_pending_order_payment(order_id, payment_method_id)`: moves the single payment. */
export const modifyPendingOrderPayment: DomainTool<RetailDb> = {
  name: 'modify_pending_order_payment',
  kind: 'write',
  description: 'Modify the payment method of a pending order.',
  params: ['order_id', 'payment_method_id'],
  run: (db, { order_id, payment_method_id }) => {
    const order = getOrder(db, order_id);
    if (!isPending(order)) throw new ToolError('Non-pending order cannot be modified');
    const method = getPaymentMethod(db, order.user_id, payment_method_id);
    const first = order.payment_history[0];
    if (order.payment_history.length !== 1 || first?.transaction_type !== 'payment') {
      throw new ToolError('There should be exactly one payment for a pending order');
    }
    if (first.payment_method_id === payment_method_id) {
      throw new ToolError('The new payment method should be different from the current one');
    }
    const amount = first.amount;
    if (isGiftCard(method) && method.balance < amount) throw new ToolError('Insufficient gift card balance to pay for the order');
    order.payment_history.push(
      { transaction_type: 'payment', amount, payment_method_id: payment_method_id as string },
      { transaction_type: 'refund', amount, payment_method_id: first.payment_method_id },
    );
    if (isGiftCard(method)) method.balance = pythonRound2(method.balance - amount);
    // Looked up after the changes above, as upstream does: a missing old method fails late.
    const oldMethod = getPaymentMethod(db, order.user_id, first.payment_method_id);
    if (isGiftCard(oldMethod)) oldMethod.balance = pythonRound2(oldMethod.balance + amount);
    return printModel(orderModel(order));
  },
};

/** `modify_user_address(user_id, address1, …, zip)`: the user's default address. */
export const modifyUserAddress: DomainTool<RetailDb> = {
  name: 'modify_user_address',
  kind: 'write',
  description: 'Modify the default address of a user.',
  params: ['user_id', ...ADDRESS_PARAMS],
  run: (db, args) => {
    const user = getUser(db, args['user_id']);
    user.address = addressArgument(args);
    return printModel(userModel(user));
  },
};
