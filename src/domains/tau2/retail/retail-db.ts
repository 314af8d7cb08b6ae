/**
 * tau2-bench's retail database as a mutable plain object (the parsed `db.json` with every
 * optional order field present), plus the lookups every retail tool shares, with upstream's
 * verbatim errors.
 */
import { isDraft, original } from 'mutative';
import { withModelDefaults } from '../canonical-db.js';
import { ToolError } from '../../domain-tool.js';

export type RetailAddress = { address1: string; address2: string; city: string; country: string; state: string; zip: string };
export type RetailVariant = { item_id: string; options: Record<string, string>; available: boolean; price: number };
export type RetailProduct = { name: string; product_id: string; variants: Record<string, RetailVariant> };
export type RetailCreditCard = { source: 'credit_card'; id: string; brand: string; last_four: string };
export type RetailPaypal = { source: 'paypal'; id: string };
export type RetailGiftCard = { source: 'gift_card'; id: string; balance: number };
export type RetailPaymentMethod = RetailCreditCard | RetailPaypal | RetailGiftCard;
export type RetailUser = {
  user_id: string;
  name: { first_name: string; last_name: string };
  address: RetailAddress;
  email: string;
  payment_methods: Record<string, RetailPaymentMethod>;
  orders: string[];
};
export type RetailOrderItem = { name: string; product_id: string; item_id: string; price: number; options: Record<string, string> };
export type RetailPayment = { transaction_type: 'payment' | 'refund'; amount: number; payment_method_id: string };
export type RetailOrder = {
  order_id: string;
  user_id: string;
  address: RetailAddress;
  items: RetailOrderItem[];
  status: string;
  fulfillments: { tracking_id: string[]; item_ids: string[] }[];
  payment_history: RetailPayment[];
  cancel_reason: string | null;
  exchange_items: string[] | null;
  exchange_new_items: string[] | null;
  exchange_payment_method_id: string | null;
  exchange_price_difference: number | null;
  return_items: string[] | null;
  return_payment_method_id: string | null;
};
export type RetailDb = {
  products: Record<string, RetailProduct>;
  users: Record<string, RetailUser>;
  orders: Record<string, RetailOrder>;
};

/**
 * The key order of `db.json`'s product and variant maps. Their keys are digit strings, which
 * JavaScript objects enumerate in numeric order, so Python's insertion order is kept here.
 */
type KeyOrder = { products: readonly string[]; variants: ReadonlyMap<string, readonly string[]> };

// Kept by the products map (which no retail tool writes), so copy-on-write snapshots of the
// database, and drafts of it, find the order of the database they came from.
const keyOrders = new WeakMap<object, KeyOrder>();
const orderOf = (db: RetailDb): KeyOrder | undefined =>
  keyOrders.get(isDraft(db.products) ? (original(db.products) as object) : db.products);

/** Reads the key order of the product and variant maps from the JSON text itself. */
function readKeyOrder(text: string, db: RetailDb): KeyOrder {
  // Prefixing digit-only keys makes them ordinary keys, which keep their insertion order.
  const marked = JSON.parse(text.replace(/"(\d+)"(\s*):/g, '"k$1"$2:')) as { products: Record<string, { variants: object }> };
  const unmark = (keys: string[]) => keys.map((k) => (k.startsWith('k') ? k.slice(1) : k));
  const products = unmark(Object.keys(marked.products));
  const variants = new Map<string, readonly string[]>();
  for (const [markedId, product] of Object.entries(marked.products)) {
    variants.set(unmark([markedId])[0] ?? markedId, unmark(Object.keys(product.variants)));
  }
  const sameKeys = (a: readonly string[], b: object) => a.length === Object.keys(b).length && a.every((k) => Object.hasOwn(b, k));
  const consistent =
    sameKeys(products, db.products) && products.every((id) => sameKeys(variants.get(id) ?? [], db.products[id]?.variants ?? {}));
  if (!consistent) throw new Error('retail db.json: could not read the key order of products and variants');
  return { products, variants };
}

/** Parses retail `db.json` into the in-memory model dump, remembering upstream's key order. */
export function loadRetailDb(text: string): RetailDb {
  const db = withModelDefaults('retail', JSON.parse(text) as Record<string, unknown>) as unknown as RetailDb;
  keyOrders.set(db.products, readKeyOrder(text, db));
  return db;
}

/** A deep copy of `db` that keeps its remembered key order. */
export function cloneRetailDb(db: RetailDb): RetailDb {
  const copy = structuredClone(db);
  const order = orderOf(db);
  if (order) keyOrders.set(copy.products, order);
  return copy;
}

/** `obj`'s keys in the recorded order (keys added since then last, in JavaScript order). */
function ordered(obj: object, recorded: readonly string[] | undefined): string[] {
  const keys = Object.keys(obj);
  if (!recorded) return keys;
  const known = recorded.filter((k) => Object.hasOwn(obj, k));
  const seen = new Set(known);
  return [...known, ...keys.filter((k) => !seen.has(k))];
}

/** Product ids in `db.json` order. */
export function productIds(db: RetailDb): string[] {
  return ordered(db.products, orderOf(db)?.products);
}

/** A product's variant ids in `db.json` order. */
export function variantIds(db: RetailDb, product: RetailProduct): string[] {
  return ordered(product.variants, orderOf(db)?.variants.get(product.product_id));
}

/** `key in mapping` as Python evaluates it: lists and dicts are unhashable. */
function has(map: object, key: unknown): key is string {
  if (Array.isArray(key)) throw new ToolError("unhashable type: 'list'");
  if (key !== null && typeof key === 'object') throw new ToolError("unhashable type: 'dict'");
  return typeof key === 'string' && Object.hasOwn(map, key);
}

/** `_get_order`: `Order not found`. */
export function getOrder(db: RetailDb, orderId: unknown): RetailOrder {
  if (!has(db.orders, orderId)) throw new ToolError('Order not found');
  return db.orders[orderId] as RetailOrder;
}

/** `_get_user`: `User not found`. */
export function getUser(db: RetailDb, userId: unknown): RetailUser {
  if (!has(db.users, userId)) throw new ToolError('User not found');
  return db.users[userId] as RetailUser;
}

/** `_get_product`: `Product not found`. */
export function getProduct(db: RetailDb, productId: unknown): RetailProduct {
  if (!has(db.products, productId)) throw new ToolError('Product not found');
  return db.products[productId] as RetailProduct;
}

/** `_get_variant`: the product lookup, then `Variant not found`. */
export function getVariant(db: RetailDb, productId: unknown, variantId: unknown): RetailVariant {
  const product = getProduct(db, productId);
  if (!has(product.variants, variantId)) throw new ToolError('Variant not found');
  return product.variants[variantId] as RetailVariant;
}

/** `_get_item`: the first product (in `db.json` order) with that variant, else `Item not found`. */
export function getItem(db: RetailDb, itemId: unknown): RetailVariant {
  for (const productId of productIds(db)) {
    const variants = db.products[productId]?.variants ?? {};
    if (has(variants, itemId)) return variants[itemId] as RetailVariant;
  }
  throw new ToolError('Item not found');
}

/** `_get_payment_method`: the user lookup, then `Payment method not found`. */
export function getPaymentMethod(db: RetailDb, userId: unknown, paymentMethodId: unknown): RetailPaymentMethod {
  const user = getUser(db, userId);
  if (!has(user.payment_methods, paymentMethodId)) throw new ToolError('Payment method not found');
  return user.payment_methods[paymentMethodId] as RetailPaymentMethod;
}

/** `isinstance(method, GiftCard)`. */
export const isGiftCard = (method: RetailPaymentMethod): method is RetailGiftCard => method.source === 'gift_card';
