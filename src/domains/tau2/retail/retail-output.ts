/**
 * What retail tools print: a model as JSON of its fields in model order (TAU2.md 4.1), floats
 * printed as Python does; and the argument coercions Python performs implicitly.
 */
import { pythonFloat, pythonJson, type FloatPath } from '../python-json.js';
import { ToolError } from '../../domain-tool.js';
import {
  productIds,
  variantIds,
  type RetailAddress,
  type RetailDb,
  type RetailOrder,
  type RetailPaymentMethod,
  type RetailProduct,
  type RetailUser,
  type RetailVariant,
} from './retail-db.js';

const FLOAT_FIELDS = new Set(['price', 'amount', 'balance', 'exchange_price_difference']);
const isOutputFloat: FloatPath = (path) => FLOAT_FIELDS.has(path.at(-1) ?? '');

/** Serialises an already model-ordered value as upstream prints a tool's return value. */
export function printModel(value: unknown): string {
  return pythonJson(value, isOutputFloat, false);
}

const address = (a: RetailAddress) => ({
  address1: a.address1,
  address2: a.address2,
  city: a.city,
  country: a.country,
  state: a.state,
  zip: a.zip,
});

const variant = (v: RetailVariant) => ({ item_id: v.item_id, options: v.options, available: v.available, price: v.price });

function paymentMethod(m: RetailPaymentMethod): Record<string, unknown> {
  if (m.source === 'credit_card') return { source: m.source, id: m.id, brand: m.brand, last_four: m.last_four };
  if (m.source === 'gift_card') return { source: m.source, id: m.id, balance: m.balance };
  return { source: m.source, id: m.id };
}

/** An order in model order: the seven optional fields last, null when unset. */
export function orderModel(o: RetailOrder): Record<string, unknown> {
  return {
    order_id: o.order_id,
    user_id: o.user_id,
    address: address(o.address),
    items: o.items.map((i) => ({ name: i.name, product_id: i.product_id, item_id: i.item_id, price: i.price, options: i.options })),
    status: o.status,
    fulfillments: o.fulfillments.map((f) => ({ tracking_id: f.tracking_id, item_ids: f.item_ids })),
    payment_history: o.payment_history.map((p) => ({
      transaction_type: p.transaction_type,
      amount: p.amount,
      payment_method_id: p.payment_method_id,
    })),
    cancel_reason: o.cancel_reason,
    exchange_items: o.exchange_items,
    exchange_new_items: o.exchange_new_items,
    exchange_payment_method_id: o.exchange_payment_method_id,
    exchange_price_difference: o.exchange_price_difference,
    return_items: o.return_items,
    return_payment_method_id: o.return_payment_method_id,
  };
}

/** A user in model order. */
export function userModel(u: RetailUser): Record<string, unknown> {
  const methods: Record<string, unknown> = {};
  for (const [id, m] of Object.entries(u.payment_methods)) methods[id] = paymentMethod(m);
  return {
    user_id: u.user_id,
    name: { first_name: u.name.first_name, last_name: u.name.last_name },
    address: address(u.address),
    email: u.email,
    payment_methods: methods,
    orders: u.orders,
  };
}

/**
 * A product in model order, its variants in `db.json` order. Digit-string keys would print in
 * numeric order from a plain object, so the variants are written as a list of entries here.
 */
export function printProduct(db: RetailDb, p: RetailProduct): string {
  const head = printModel({ name: p.name, product_id: p.product_id }).slice(0, -1);
  const variants = variantIds(db, p).map((id) => `${printModel(id)}: ${printModel(variant(p.variants[id] as RetailVariant))}`);
  return `${head}, "variants": {${variants.join(', ')}}}`;
}

/** A variant in model order. */
export function printVariant(v: RetailVariant): string {
  return printModel(variant(v));
}

/** `{product name: product_id}` over the products in `db.json` order, printed with sorted keys. */
export function printProductTypes(db: RetailDb): string {
  const types: Record<string, string> = {};
  for (const id of productIds(db)) {
    const product = db.products[id] as RetailProduct;
    types[product.name] = product.product_id;
  }
  return pythonJson(types);
}

/** Python's type name of a JSON value, for TypeError texts. */
export function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  return Array.isArray(value) ? 'list' : 'dict';
}

/** `str(value)` for a JSON scalar, as it appears in f-string error texts. */
export function pythonStr(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pythonFloat(value);
  return JSON.stringify(value);
}

/**
 * An id-list argument as the tools iterate it and call `.count` on it: a list as is, a string
 * as its characters; anything else fails the way Python does.
 */
export function idList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return Array.from(value);
  if (value !== null && typeof value === 'object') throw new ToolError("'dict' object has no attribute 'count'");
  throw new ToolError(`'${pythonTypeName(value)}' object is not iterable`);
}

/** Python's `list.count` for JSON scalars and lists of them. */
export function countOf(list: readonly unknown[], value: unknown): number {
  const key = JSON.stringify(value);
  return list.filter((v) => v === value || (typeof v === 'object' && JSON.stringify(v) === key)).length;
}

/**
 * Builds a `UserAddress` from the six address arguments. A non-string field fails pydantic's
 * validation; the text approximates pydantic's (it names the field and the input type).
 */
export function addressArgument(args: Record<string, unknown>): RetailAddress {
  const fields = ['address1', 'address2', 'city', 'country', 'state', 'zip'] as const;
  const bad = fields.filter((f) => typeof args[f] !== 'string');
  if (bad.length > 0) {
    const lines = bad.map(
      (f) =>
        `${f}\n  Input should be a valid string [type=string_type, input_value=${pythonStr(args[f])}, input_type=${pythonTypeName(args[f])}]`,
    );
    throw new ToolError(`${bad.length} validation error${bad.length > 1 ? 's' : ''} for UserAddress\n${lines.join('\n')}`);
  }
  const [address1, address2, city, country, state, zip] = fields.map((f) => args[f] as string) as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  return { address1, address2, city, country, state, zip };
}
