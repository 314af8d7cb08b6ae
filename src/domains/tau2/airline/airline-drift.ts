/**
 * tau2-bench airline's policy drift events (src/domains/drift.ts). Each tightens a rule of the
 * airline policy from a customer turn on; what the agent can no longer do itself goes to a human
 * agent (tau2-bench's transfer), as the policy says of any request outside the agent's scope.
 *
 * - `cancellation_rule_tightened`: the 24-hour and business-class exceptions of the cancellation
 *   rule are withdrawn; only a reservation with travel insurance, or with a flight the airline
 *   cancelled, is cancelled by the agent (the tool refuses the others).
 * - `business_fares_suspended`: business class is withdrawn from sale (its seats are 0 on every
 *   flight date still on sale); no booking in business, no move into business.
 * - `airport_closed`: every flight to or from one airport is suspended; no booking or flight change
 *   onto such a flight.
 */
import type { DriftEvent } from '../../drift.js';
import type { AirlineDb, Reservation } from './types.js';

/** The airport whose flights `airport_closed` suspends. */
export const DRIFT_CLOSED_AIRPORT = 'JFK';

const TRANSFER = 'transfer the customer to a human agent';

const reservationOf = (db: AirlineDb, args: Readonly<Record<string, unknown>>): Reservation | undefined =>
  typeof args['reservation_id'] === 'string' ? db.reservations[args['reservation_id']] : undefined;

/** The flight numbers a booking or a flight change would put the customer on. */
function flightNumbersOf(args: Readonly<Record<string, unknown>>): string[] {
  const flights = args['flights'];
  if (!Array.isArray(flights)) return [];
  return flights.flatMap((f: unknown) => {
    const n = (f as { flight_number?: unknown } | null)?.flight_number;
    return typeof n === 'string' ? [n] : [];
  });
}

/** Whether the airline cancelled one of the reservation's flights. */
const airlineCancelled = (db: AirlineDb, reservation: Reservation) =>
  reservation.flights.some((f) => db.flights[f.flight_number]?.dates[f.date]?.status === 'cancelled');

/** tau2-bench airline's three drift events. */
export const AIRLINE_DRIFT_EVENTS: readonly DriftEvent<AirlineDb>[] = [
  {
    id: 'cancellation_rule_tightened',
    notice: `The cancellation rule is tightened: the 24-hour and business-class exceptions no longer apply. Cancel a reservation only if it has travel insurance or the airline cancelled one of its flights; for any other cancellation, do not call cancel_reservation: ${TRANSFER}.`,
    refuse: (name, args, db) => {
      if (name !== 'cancel_reservation') return null;
      const reservation = reservationOf(db, args);
      if (!reservation || reservation.insurance === 'yes' || airlineCancelled(db, reservation)) return null;
      return `Reservation ${reservation.reservation_id} has no travel insurance and no flight cancelled by the airline: under the new cancellation rule it cannot be cancelled here; ${TRANSFER}`;
    },
  },
  {
    id: 'business_fares_suspended',
    notice: `Business-class fares are withdrawn from sale. Do not book business class or move a reservation into business class: ${TRANSFER}.`,
    apply: (db) => {
      for (const flight of Object.values(db.flights))
        for (const date of Object.values(flight.dates))
          if (date.status === 'available' && date.available_seats) date.available_seats['business'] = 0;
    },
    refuse: (name, args, db) => {
      if (args['cabin'] !== 'business') return null;
      if (name === 'book_reservation') return `Business-class fares are withdrawn from sale; ${TRANSFER}`;
      if (name === 'update_reservation_flights' && reservationOf(db, args)?.cabin !== 'business')
        return `Business-class fares are withdrawn from sale: no move into business class; ${TRANSFER}`;
      return null;
    },
  },
  {
    id: 'airport_closed',
    notice: `All flights to and from ${DRIFT_CLOSED_AIRPORT} are suspended. Do not book anyone on, or move a reservation onto, a flight to or from ${DRIFT_CLOSED_AIRPORT}: ${TRANSFER}.`,
    refuse: (name, args, db) => {
      if (name !== 'book_reservation' && name !== 'update_reservation_flights') return null;
      const closed = flightNumbersOf(args).find((n) => {
        const flight = db.flights[n];
        return flight !== undefined && (flight.origin === DRIFT_CLOSED_AIRPORT || flight.destination === DRIFT_CLOSED_AIRPORT);
      });
      return closed === undefined ? null : `Flight ${closed} is suspended: ${DRIFT_CLOSED_AIRPORT} is closed; ${TRANSFER}`;
    },
  },
];
