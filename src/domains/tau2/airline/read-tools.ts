import type { DomainTool } from '../../domain-tool.js';
import { getFlightInstance, getReservation, getUser } from './lookups.js';
import { hasKey } from './python-semantics.js';
import type { AirlineDb } from './types.js';
import { reservationView, toolJson, userView } from './views.js';

/** The airline's read-only tools: lookups, airport list, flight search and status. */

export const getReservationDetails: DomainTool<AirlineDb> = {
  name: 'get_reservation_details',
  kind: 'read',
  description: 'Get the details of a reservation.',
  params: ['reservation_id'],
  run: (db, args) => toolJson(reservationView({ ...getReservation(db, args['reservation_id']) })),
};

export const getUserDetails: DomainTool<AirlineDb> = {
  name: 'get_user_details',
  kind: 'read',
  description: 'Get the details of a user, including their reservations.',
  params: ['user_id'],
  run: (db, args) => toolJson(userView({ ...getUser(db, args['user_id']) })),
};

const AIRPORTS: ReadonlyArray<readonly [string, string]> = [
  ['SFO', 'San Francisco'],
  ['JFK', 'New York'],
  ['LAX', 'Los Angeles'],
  ['ORD', 'Chicago'],
  ['DFW', 'Dallas'],
  ['DEN', 'Denver'],
  ['SEA', 'Seattle'],
  ['ATL', 'Atlanta'],
  ['MIA', 'Miami'],
  ['BOS', 'Boston'],
  ['PHX', 'Phoenix'],
  ['IAH', 'Houston'],
  ['LAS', 'Las Vegas'],
  ['MCO', 'Orlando'],
  ['EWR', 'Newark'],
  ['CLT', 'Charlotte'],
  ['MSP', 'Minneapolis'],
  ['DTW', 'Detroit'],
  ['PHL', 'Philadelphia'],
  ['LGA', 'LaGuardia'],
];

export const listAllAirports: DomainTool<AirlineDb> = {
  name: 'list_all_airports',
  kind: 'read',
  description: 'Returns a list of all available airports.',
  params: [],
  run: () => toolJson(AIRPORTS.map(([iata, city]) => ({ iata, city }))),
};

/** A `DirectFlight` dump: the flight, its schedule, one date's seats and prices; `date` set by one-stop search. */
interface DirectFlight {
  flight_number: string;
  origin: string;
  destination: string;
  status: 'available';
  scheduled_departure_time_est: string;
  scheduled_arrival_time_est: string;
  date: string | null;
  available_seats: unknown;
  prices: unknown;
}

/** Upstream's `_search_direct_flight`: available flights in DB order, optionally leaving at or after a time. */
function searchDirect(db: AirlineDb, date: unknown, origin: unknown, destination: unknown, leaveAfter?: string): DirectFlight[] {
  const results: DirectFlight[] = [];
  for (const flight of Object.values(db.flights)) {
    if (origin != null && flight.origin !== origin) continue;
    if (destination != null && flight.destination !== destination) continue;
    if (!hasKey(flight.dates, date)) continue;
    const state = flight.dates[date];
    if (state?.status !== 'available') continue;
    if (leaveAfter !== undefined && !(flight.scheduled_departure_time_est >= leaveAfter)) continue;
    results.push({
      flight_number: flight.flight_number,
      origin: flight.origin,
      destination: flight.destination,
      status: 'available',
      scheduled_departure_time_est: flight.scheduled_departure_time_est,
      scheduled_arrival_time_est: flight.scheduled_arrival_time_est,
      date: null,
      available_seats: state.available_seats,
      prices: state.prices,
    });
  }
  return results;
}

export const searchDirectFlight: DomainTool<AirlineDb> = {
  name: 'search_direct_flight',
  kind: 'read',
  description: 'Search for direct flights between two cities on a specific date.',
  params: ['origin', 'destination', 'date'],
  run: (db, args) => toolJson(searchDirect(db, args['date'], args['origin'], args['destination'])),
};

/**
 * One-stop search as upstream does it: the second leg's date is `2024-05-` + (day + 1) without
 * zero padding when the first leg arrives `+1`, and the connection test compares the time strings
 * (suffix included).
 */
export const searchOnestopFlight: DomainTool<AirlineDb> = {
  name: 'search_onestop_flight',
  kind: 'read',
  description: 'Search for one-stop flights between two cities on a specific date.',
  params: ['origin', 'destination', 'date'],
  run: (db, args) => {
    const date = args['date'];
    const results: DirectFlight[][] = [];
    for (const first of searchDirect(db, date, args['origin'], undefined)) {
      // Only reached when `date` is a key of the flight's dates, hence a string.
      const day = String(date);
      first.date = day;
      const date2 = first.scheduled_arrival_time_est.includes('+1') ? `2024-05-${Number(day.slice(-2)) + 1}` : day;
      for (const second of searchDirect(db, date2, first.destination, args['destination'], first.scheduled_arrival_time_est)) {
        second.date = date2;
        results.push([first, second]);
      }
    }
    return toolJson(results);
  },
};

export const getFlightStatus: DomainTool<AirlineDb> = {
  name: 'get_flight_status',
  kind: 'read',
  description: 'Get the status of a flight.',
  params: ['flight_number', 'date'],
  run: (db, args) => String(getFlightInstance(db, args['flight_number'], args['date']).status),
};
