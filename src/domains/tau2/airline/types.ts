/**
 * The airline database as the tools see it: `db.json` parsed and completed by
 * `withModelDefaults('airline', …)`, mutated in place by the write tools. Records keep the
 * on-disk key order; tool outputs reorder keys to upstream's model order (see `views.ts`).
 */

/** A flight's state on one date; only `available` dates carry seats and prices. */
export interface FlightDate {
  status: string;
  available_seats?: Record<string, number>;
  prices?: Record<string, number>;
  [field: string]: unknown;
}

export interface Flight {
  flight_number: string;
  origin: string;
  destination: string;
  scheduled_departure_time_est: string;
  scheduled_arrival_time_est: string;
  dates: Record<string, FlightDate>;
}

/** A credit card, gift card or certificate; gift cards and certificates carry a float `amount`. */
export interface PaymentMethod {
  source: string;
  id: string;
  amount?: number;
  brand?: string;
  last_four?: string;
}

export interface Passenger {
  first_name: unknown;
  last_name: unknown;
  dob: unknown;
}

export interface User {
  user_id: string;
  name: Record<string, unknown>;
  address: Record<string, unknown>;
  email: string;
  dob: string;
  payment_methods: Record<string, PaymentMethod>;
  saved_passengers: Passenger[];
  membership: string;
  reservations: string[];
}

export interface ReservationFlight {
  flight_number: string;
  origin: string;
  destination: string;
  date: string;
  price: number;
}

export interface Payment {
  payment_id: string;
  amount: number;
}

export interface Reservation {
  reservation_id: string;
  user_id: string;
  origin: string;
  destination: string;
  flight_type: string;
  cabin: unknown;
  flights: ReservationFlight[];
  passengers: unknown[];
  payment_history: Payment[];
  created_at: string;
  total_baggages: unknown;
  nonfree_baggages: unknown;
  insurance: string;
  status: string | null;
}

export interface AirlineDb {
  flights: Record<string, Flight>;
  users: Record<string, User>;
  reservations: Record<string, Reservation>;
}
