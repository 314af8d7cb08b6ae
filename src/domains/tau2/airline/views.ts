import { pythonJson } from '../python-json.js';
import type { FieldKind } from './python-semantics.js';
import { isDict } from './python-semantics.js';

/**
 * Tool outputs as upstream's pydantic models dump them: every field in model order, whatever the
 * order on disk (a stored reservation flight starts with origin; its dump with flight_number).
 */

export const CABINS = ['business', 'economy', 'basic_economy'] as const;
export const FLIGHT_TYPES = ['round_trip', 'one_way'] as const;
export const INSURANCE = ['yes', 'no'] as const;

/** Fields of the models tool arguments are validated into. */
export const FLIGHT_INFO_FIELDS: ReadonlyArray<readonly [string, FieldKind]> = [
  ['flight_number', 'str'],
  ['date', 'str'],
];
export const PASSENGER_FIELDS: ReadonlyArray<readonly [string, FieldKind]> = [
  ['first_name', 'str'],
  ['last_name', 'str'],
  ['dob', 'str'],
];
export const PAYMENT_FIELDS: ReadonlyArray<readonly [string, FieldKind]> = [
  ['payment_id', 'str'],
  ['amount', 'int'],
];

const pick = (value: unknown, keys: readonly string[]): unknown => {
  if (!isDict(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = value[key] ?? null;
  // Fields the model does not declare are not dumped; there are none in the shipped data.
  return out;
};

const list = (value: unknown, view: (item: unknown) => unknown): unknown => (Array.isArray(value) ? value.map(view) : value);

const NAME = ['first_name', 'last_name'];
const ADDRESS = ['address1', 'address2', 'city', 'country', 'state', 'zip'];
const PASSENGER = ['first_name', 'last_name', 'dob'];
const PAYMENT = ['payment_id', 'amount'];
const RESERVATION_FLIGHT = ['flight_number', 'origin', 'destination', 'date', 'price'];
const METHOD_KEYS: Record<string, readonly string[]> = {
  credit_card: ['source', 'id', 'brand', 'last_four'],
  gift_card: ['source', 'id', 'amount'],
  certificate: ['source', 'id', 'amount'],
};

function paymentMethodView(method: unknown): unknown {
  if (!isDict(method)) return method;
  const keys = METHOD_KEYS[String(method['source'])];
  return keys ? pick(method, keys) : method;
}

/** A user in model order: user_id, name, address, email, dob, payment_methods, saved_passengers, membership, reservations. */
export function userView(user: Record<string, unknown>): Record<string, unknown> {
  const methods = isDict(user['payment_methods']) ? user['payment_methods'] : {};
  return {
    user_id: user['user_id'],
    name: pick(user['name'], NAME),
    address: pick(user['address'], ADDRESS),
    email: user['email'],
    dob: user['dob'],
    payment_methods: Object.fromEntries(Object.entries(methods).map(([k, m]) => [k, paymentMethodView(m)])),
    saved_passengers: list(user['saved_passengers'], (p) => pick(p, PASSENGER)),
    membership: user['membership'],
    reservations: user['reservations'],
  };
}

/** A reservation in model order (status last, null when unset). */
export function reservationView(reservation: Record<string, unknown>): Record<string, unknown> {
  return {
    reservation_id: reservation['reservation_id'],
    user_id: reservation['user_id'],
    origin: reservation['origin'],
    destination: reservation['destination'],
    flight_type: reservation['flight_type'],
    cabin: reservation['cabin'],
    flights: list(reservation['flights'], (f) => pick(f, RESERVATION_FLIGHT)),
    passengers: list(reservation['passengers'], (p) => pick(p, PASSENGER)),
    payment_history: list(reservation['payment_history'], (p) => pick(p, PAYMENT)),
    created_at: reservation['created_at'],
    total_baggages: reservation['total_baggages'],
    nonfree_baggages: reservation['nonfree_baggages'],
    insurance: reservation['insurance'],
    status: reservation['status'] ?? null,
  };
}

/** Gift card and certificate amounts (`payment_methods.<id>.amount`) are the only float fields in outputs. */
const outputFloat = (path: readonly string[]): boolean => path.length === 3 && path[0] === 'payment_methods' && path[2] === 'amount';

/** Serialises a tool result as upstream prints it: Python JSON in model field order. */
export function toolJson(value: unknown): string {
  return pythonJson(value, outputFloat, false);
}
