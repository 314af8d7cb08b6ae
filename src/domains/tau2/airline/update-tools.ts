import { type DomainTool, ToolError } from '../../domain-tool.js';
import { getFlight, getFlightInstance, getReservation, getUser, paymentForUpdate } from './lookups.js';
import { attribute, listArg } from './model-args.js';
import { coerceField, getKey, hasKey, pythonNumber, pythonStr, validationError } from './python-semantics.js';
import type { AirlineDb, ReservationFlight } from './types.js';
import { FLIGHT_INFO_FIELDS, PASSENGER_FIELDS, reservationView, toolJson } from './views.js';

/** The airline's write tools that change an existing reservation, and `send_certificate`. */

const output = (reservation: object): string => toolJson(reservationView({ ...reservation }));

/** Cancels without any eligibility check: one refund per existing payment, status `cancelled`. */
export const cancelReservation: DomainTool<AirlineDb> = {
  name: 'cancel_reservation',
  kind: 'write',
  description: 'Cancel the whole reservation.',
  params: ['reservation_id'],
  run: (db, args) => {
    const reservation = getReservation(db, args['reservation_id']);
    const refunds = reservation.payment_history.map((p) => ({ payment_id: p.payment_id, amount: -p.amount }));
    reservation.payment_history.push(...refunds);
    reservation.status = 'cancelled';
    return output(reservation);
  },
};

/**
 * Sets both baggage counts as given (no validation); charges 50 per added non-free bag. Upstream
 * stores a float argument as a float (`2.0` changes the hash); parsed JSON cannot tell `2.0` from
 * `2`, so an integral float is stored as an int here.
 */
export const updateReservationBaggages: DomainTool<AirlineDb> = {
  name: 'update_reservation_baggages',
  kind: 'write',
  description: 'Update the baggage information of a reservation.',
  params: ['reservation_id', 'total_baggages', 'nonfree_baggages', 'payment_id'],
  run: (db, args) => {
    const reservation = getReservation(db, args['reservation_id']);
    const user = getUser(db, reservation.user_id);
    const nonfree = args['nonfree_baggages'];
    const added =
      pythonNumber(nonfree, '-', reservation.nonfree_baggages, true) - pythonNumber(reservation.nonfree_baggages, '-', nonfree, false);
    const payment = paymentForUpdate(user, args['payment_id'], 50 * Math.max(0, added));
    if (payment) reservation.payment_history.push(payment);
    reservation.total_baggages = args['total_baggages'];
    reservation.nonfree_baggages = nonfree;
    return output(reservation);
  },
};

/**
 * Replaces the whole itinerary. A requested flight already in the reservation (same number and
 * date) keeps its old price when the cabin is unchanged; any other flight must be available with
 * enough seats in the new cabin and is priced now. The difference is charged or refunded through
 * the payment check; seat inventory is never touched; the cabin is stored as given.
 */
export const updateReservationFlights: DomainTool<AirlineDb> = {
  name: 'update_reservation_flights',
  kind: 'write',
  description: 'Update the flight information of a reservation.',
  params: ['reservation_id', 'cabin', 'flights', 'payment_id'],
  run: (db, args) => {
    const flights = listArg(args['flights'], 'FlightInfo', FLIGHT_INFO_FIELDS);
    const reservation = getReservation(db, args['reservation_id']);
    const user = getUser(db, reservation.user_id);
    const cabin = args['cabin'];
    const count = reservation.passengers.length;
    let total = 0;
    const kept: ReservationFlight[] = [];
    for (let i = 0; i < flights.items.length; i++) {
      const flightNumber = attribute(flights, i, 'flight_number');
      const date = attribute(flights, i, 'date');
      const same = reservation.flights.find((f) => f.flight_number === flightNumber && f.date === date && cabin === reservation.cabin);
      if (same) {
        total += same.price * count;
        kept.push(same);
        continue;
      }
      const state = getFlightInstance(db, flightNumber, date);
      if (state.status !== 'available') throw new ToolError(`Flight ${pythonStr(flightNumber)} not available on date ${pythonStr(date)}`);
      if (getKey(state.available_seats ?? {}, cabin) < count) throw new ToolError(`Not enough seats on flight ${pythonStr(flightNumber)}`);
      const flight = getFlight(db, flightNumber);
      const price = getKey(state.prices ?? {}, cabin);
      kept.push({ flight_number: flight.flight_number, origin: flight.origin, destination: flight.destination, date: String(date), price });
      total += price * count;
    }
    total -= reservation.flights.reduce((sum, f) => sum + f.price, 0) * count;
    const payment = paymentForUpdate(user, args['payment_id'], total);
    if (payment) reservation.payment_history.push(payment);
    reservation.flights = kept;
    reservation.cabin = cabin;
    return output(reservation);
  },
};

/** Replaces the passengers; the count must stay the same (`Number of passengers does not match`). */
export const updateReservationPassengers: DomainTool<AirlineDb> = {
  name: 'update_reservation_passengers',
  kind: 'write',
  description: 'Update the passenger information of a reservation.',
  params: ['reservation_id', 'passengers'],
  run: (db, args) => {
    const passengers = listArg(args['passengers'], 'Passenger', PASSENGER_FIELDS);
    const reservation = getReservation(db, args['reservation_id']);
    if (passengers.items.length !== reservation.passengers.length) throw new ToolError('Number of passengers does not match');
    reservation.passengers = passengers.items.map((p) => (typeof p === 'object' && p !== null ? { ...p } : p));
    return output(reservation);
  },
};

const CERTIFICATE_IDS = ['certificate_3221322', 'certificate_3221323', 'certificate_3221324'];

/** Adds the first free certificate id with the amount (a float); echoes the amount as passed. */
export const sendCertificate: DomainTool<AirlineDb> = {
  name: 'send_certificate',
  kind: 'write',
  description: 'Send a certificate to a user. Be careful!',
  params: ['user_id', 'amount'],
  run: (db, args) => {
    const user = getUser(db, args['user_id']);
    const id = CERTIFICATE_IDS.find((candidate) => !hasKey(user.payment_methods, candidate));
    if (id === undefined) throw new ToolError('Too many certificates');
    const amount = coerceField('float', args['amount'], 'amount');
    if (!('value' in amount)) throw validationError('Certificate', [amount]);
    user.payment_methods[id] = { source: 'certificate', id, amount: amount.value as number };
    // JSON cannot tell 100 from 100.0: an integral amount is echoed as an int (`100`).
    return `Certificate ${id} added to user ${pythonStr(args['user_id'])} with amount ${pythonStr(args['amount'])}.`;
  },
};
