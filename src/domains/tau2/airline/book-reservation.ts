import { type DomainTool, ToolError } from '../../domain-tool.js';
import { AIRLINE_NOW, getFlight, getFlightInstance, getUser, newReservationId } from './lookups.js';
import { attribute, listArg, modelListField } from './model-args.js';
import { coerceField, type FieldKind, getKey, validationError, type ValidationIssue } from './python-semantics.js';
import type { AirlineDb, FlightDate, Payment, Reservation, ReservationFlight } from './types.js';
import {
  CABINS,
  FLIGHT_INFO_FIELDS,
  FLIGHT_TYPES,
  INSURANCE,
  PASSENGER_FIELDS,
  PAYMENT_FIELDS,
  reservationView,
  toolJson,
} from './views.js';

const SCALAR_FIELDS: ReadonlyArray<readonly [string, FieldKind]> = [
  ['origin', 'str'],
  ['destination', 'str'],
  ['flight_type', FLIGHT_TYPES],
  ['cabin', CABINS],
  ['total_baggages', 'int'],
  ['nonfree_baggages', 'int'],
  ['insurance', INSURANCE],
];

/**
 * Books a reservation with upstream's checks in upstream's order: argument models; user; new id
 * (`Too many reservations`); the reservation model (flight_type, cabin, insurance, counts); per
 * flight: lookups, `Flight {n} not available on date {d}`, `Not enough seats on flight {n}`;
 * insurance and baggage fees; per payment: `Payment method {id} not found`, `Not enough balance in
 * payment method {id}`; then `Payment amount does not add up, …`. Only then does it mutate:
 * gift cards are charged, certificates removed, seats taken, the reservation stored (a certificate
 * listed twice fails midway, as upstream does).
 */
export const bookReservation: DomainTool<AirlineDb> = {
  name: 'book_reservation',
  kind: 'write',
  description: 'Book a reservation.',
  params: [
    'user_id',
    'origin',
    'destination',
    'flight_type',
    'cabin',
    'flights',
    'passengers',
    'payment_methods',
    'total_baggages',
    'nonfree_baggages',
    'insurance',
  ],
  run: (db, args) => {
    const flights = listArg(args['flights'], 'FlightInfo', FLIGHT_INFO_FIELDS);
    const passengerArg = listArg(args['passengers'], 'Passenger', PASSENGER_FIELDS);
    const paymentArg = listArg(args['payment_methods'], 'Payment', PAYMENT_FIELDS);
    const user = getUser(db, args['user_id']);
    const reservationId = newReservationId(db);

    // Reservation(...): every field validated at once, as pydantic reports them.
    const issues: ValidationIssue[] = [];
    const scalars: Record<string, unknown> = {};
    for (const [field, kind] of SCALAR_FIELDS) {
      const result = coerceField(kind, args[field], field);
      if ('value' in result) scalars[field] = result.value;
      else issues.push(result);
    }
    const passengers = modelListField('passengers', passengerArg, 'Passenger', PASSENGER_FIELDS, issues);
    const payments = modelListField('payment_history', paymentArg, 'Payment', PAYMENT_FIELDS, issues) as Payment[];
    if (issues.length > 0) throw validationError('Reservation', issues);
    const cabin = scalars['cabin'] as string;
    const count = passengerArg.items.length;

    let total = 0;
    const reservationFlights: ReservationFlight[] = [];
    const dates: FlightDate[] = [];
    for (let i = 0; i < flights.items.length; i++) {
      const flightNumber = attribute(flights, i, 'flight_number');
      const date = attribute(flights, i, 'date') as string;
      const flight = getFlight(db, flightNumber);
      const state = getFlightInstance(db, flightNumber, date);
      if (state.status !== 'available') throw new ToolError(`Flight ${flight.flight_number} not available on date ${date}`);
      const seats = state.available_seats?.[cabin] ?? 0;
      if (seats < count) throw new ToolError(`Not enough seats on flight ${flight.flight_number}`);
      const price = state.prices?.[cabin] ?? 0;
      reservationFlights.push({ flight_number: flight.flight_number, origin: flight.origin, destination: flight.destination, date, price });
      dates.push(state);
      total += price * count;
    }
    if (scalars['insurance'] === 'yes') total += 30 * count;
    // Upstream adds 50 × the raw argument (not the validated field): a numeric string passes
    // validation, then `50 * "2"` is a str and the addition raises.
    const nonfree = args['nonfree_baggages'];
    if (typeof nonfree === 'string') throw new ToolError(`unsupported operand type(s) for +=: 'int' and 'str'`);
    total += 50 * Number(nonfree);

    for (const payment of payments) {
      if (!Object.hasOwn(user.payment_methods, payment.payment_id)) throw new ToolError(`Payment method ${payment.payment_id} not found`);
      const method = user.payment_methods[payment.payment_id];
      if ((method?.source === 'gift_card' || method?.source === 'certificate') && (method.amount ?? 0) < payment.amount) {
        throw new ToolError(`Not enough balance in payment method ${payment.payment_id}`);
      }
    }
    const paid = payments.reduce((sum, p) => sum + p.amount, 0);
    if (paid !== total) throw new ToolError(`Payment amount does not add up, total price is ${total}, but paid ${paid}`);

    for (const payment of payments) {
      // A certificate listed twice was removed at its first use: Python's KeyError, after the
      // earlier entries were charged.
      const method = getKey(user.payment_methods, payment.payment_id);
      if (method.source === 'gift_card') method.amount = (method.amount ?? 0) - payment.amount;
      else if (method.source === 'certificate') delete user.payment_methods[payment.payment_id];
    }
    for (const state of dates) {
      const seats = state.available_seats;
      if (seats) seats[cabin] = (seats[cabin] ?? 0) - count;
    }
    const reservation: Reservation = {
      reservation_id: reservationId,
      user_id: user.user_id,
      origin: scalars['origin'] as string,
      destination: scalars['destination'] as string,
      flight_type: scalars['flight_type'] as string,
      cabin,
      flights: reservationFlights,
      passengers,
      payment_history: payments,
      created_at: AIRLINE_NOW,
      total_baggages: scalars['total_baggages'],
      nonfree_baggages: scalars['nonfree_baggages'],
      insurance: scalars['insurance'] as string,
      status: null,
    };
    db.reservations[reservationId] = reservation;
    user.reservations.push(reservationId);
    return toolJson(reservationView({ ...reservation }));
  },
};
