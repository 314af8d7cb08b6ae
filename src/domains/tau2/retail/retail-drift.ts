/**
 * tau2-bench retail's policy drift events (src/domains/drift.ts). Each tightens a rule of the
 * retail policy from a customer turn on; what the agent can no longer do itself goes to a human
 * agent (tau2-bench's transfer), as the policy says of any request outside the agent's scope.
 *
 * - `exchanges_suspended`: exchanges of delivered items are suspended (returns still run).
 * - `product_recalled`: one product is recalled: none of its variants is sold any more, so no
 *   exchange or item change into it.
 * - `gift_card_payments_suspended`: gift-card balances are frozen: no refund to, and no payment
 *   from, a gift card for a return, an exchange or an item change.
 *
 * The retail database has no order or delivery dates, so a shortened return window cannot be
 * checked; it is not among the events.
 */
import type { DriftEvent } from '../../drift.js';
import type { RetailDb } from './retail-db.js';

/** The product `product_recalled` withdraws (tau2-bench's "Laptop"). */
export const DRIFT_RECALLED_PRODUCT = '4760268021';

const TRANSFER = 'transfer the customer to a human agent';
const ITEM_CHANGES = new Set(['exchange_delivered_order_items', 'modify_pending_order_items']);
const PAYING = new Set(['exchange_delivered_order_items', 'modify_pending_order_items', 'return_delivered_order_items']);

const idsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** tau2-bench retail's three drift events. */
export const RETAIL_DRIFT_EVENTS: readonly DriftEvent<RetailDb>[] = [
  {
    id: 'exchanges_suspended',
    notice: `Exchanges of delivered items are suspended (returns and changes to pending orders still run). Do not call exchange_delivered_order_items: ${TRANSFER} who wants an exchange.`,
    refuse: (name) => (name === 'exchange_delivered_order_items' ? `Exchanges are suspended; ${TRANSFER}` : null),
  },
  {
    id: 'product_recalled',
    notice: `Product ${DRIFT_RECALLED_PRODUCT} is recalled and withdrawn from sale. Do not exchange or change an item into any of its variants: ${TRANSFER} who wants one.`,
    refuse: (name, args, db) => {
      if (!ITEM_CHANGES.has(name)) return null;
      const variants = db.products[DRIFT_RECALLED_PRODUCT]?.variants ?? {};
      const recalled = idsOf(args['new_item_ids']).find((id) => Object.hasOwn(variants, id));
      return recalled === undefined ? null : `Item ${recalled} is recalled (product ${DRIFT_RECALLED_PRODUCT}); ${TRANSFER}`;
    },
  },
  {
    id: 'gift_card_payments_suspended',
    notice: `Gift-card balances are frozen during an audit. Do not refund to, or take a payment from, a gift card for a return, an exchange or an item change: ${TRANSFER} who wants one.`,
    refuse: (name, args, db) => {
      if (!PAYING.has(name)) return null;
      const order = typeof args['order_id'] === 'string' ? db.orders[args['order_id']] : undefined;
      const method = args['payment_method_id'];
      const source = order && typeof method === 'string' ? db.users[order.user_id]?.payment_methods[method]?.source : undefined;
      return source === 'gift_card' ? `Gift-card payments and refunds are suspended; ${TRANSFER}` : null;
    },
  },
];
