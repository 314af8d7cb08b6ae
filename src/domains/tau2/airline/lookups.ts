import { ToolError } from '../../domain-tool.js';
import { hasKey, pythonStr, validationError } from './python-semantics.js';
import type { AirlineDb, Flight, FlightDate, Payment, Reservation, User } from './types.js';

/** Upstream's lookups with their exact errors (exact key match, as at the pinned commit). */

export function getUser(db: AirlineDb, userId: unknown): User {
  if (!hasKey(db.users, userId)) throw new ToolError(`User ${pythonStr(userId)} not found`);
  return db.users[userId] as User;
}

export function getReservation(db: AirlineDb, reservationId: unknown): Reservation {
  if (!hasKey(db.reservations, reservationId)) throw new ToolError(`Reservation ${pythonStr(reservationId)} not found`);
  return db.reservations[reservationId] as Reservation;
}

export function getFlight(db: AirlineDb, flightNumber: unknown): Flight {
  if (!hasKey(db.flights, flightNumber)) throw new ToolError(`Flight ${pythonStr(flightNumber)} not found`);
  return db.flights[flightNumber] as Flight;
}

/** A flight's state on a date: `Flight {n} not found`, then `Flight {n} not found on date {d}`. */
export function getFlightInstance(db: AirlineDb, flightNumber: unknown, date: unknown): FlightDate {
  const flight = getFlight(db, flightNumber);
  if (!hasKey(flight.dates, date)) throw new ToolError(`Flight ${pythonStr(flightNumber)} not found on date ${pythonStr(date)}`);
  return flight.dates[date] as FlightDate;
}

/** The three reservation ids a task may create, in the order they are handed out. */
export function newReservationId(db: AirlineDb): string {
  for (const id of ['HATHAT', 'HATHAU', 'HATHAV']) if (!Object.hasOwn(db.reservations, id)) return id;
  throw new ToolError('Too many reservations');
}

/** The fixed "now" of the airline domain. */
export const AIRLINE_NOW = '2024-05-15T15:00:00';

/**
 * The payment check of the update tools, in upstream's order: `Payment method not found`;
 * `Certificate cannot be used to update reservation` (whatever the amount); `Gift card balance is
 * not enough`. A gift card is then charged (credited when `total` is negative). Returns the payment
 * to record, or null when `total` is 0.
 */
export function paymentForUpdate(user: User, paymentId: unknown, total: number): Payment | null {
  if (!hasKey(user.payment_methods, paymentId)) throw new ToolError('Payment method not found');
  const method = user.payment_methods[paymentId];
  if (method?.source === 'certificate') throw new ToolError('Certificate cannot be used to update reservation');
  if (method?.source === 'gift_card' && (method.amount ?? 0) < total) throw new ToolError('Gift card balance is not enough');
  if (method?.source === 'gift_card') method.amount = (method.amount ?? 0) - total;
  if (total === 0) return null;
  // Payment(amount=…) is an int field: a fractional charge fails validation after the charge.
  if (!Number.isInteger(total)) {
    throw validationError('Payment', [
      { loc: 'amount', msg: 'Input should be a valid integer, got a number with a fractional part', type: 'int_from_float', input: total },
    ]);
  }
  return { payment_id: paymentId, amount: total };
}
