import { z } from 'zod';
import { CABINS, FLIGHT_TYPES, INSURANCE } from './views.js';

/**
 * Argument schemas of the 14 airline tools, for offering them to a model as function schemas
 * (`z.toJSONSchema(schema, { io: 'input' })`). Types follow upstream's Python signatures; the
 * descriptions are Baton's own. These schemas only describe the arguments: the tools keep their
 * own upstream validation and error strings, so nothing here is stricter than upstream's types.
 */

const userId = () => z.string().describe("The user's id, such as 'mia_li_3668'.");
const reservationId = () => z.string().describe("The reservation's id, such as '4WQ150'.");
const airport = (which: string) => z.string().describe(`IATA code of the ${which} airport, such as 'JFK'.`);
const flightDate = (what: string) => z.string().describe(`${what}, in the format 'YYYY-MM-DD'.`);
const cabin = (what: string) => z.enum(CABINS).describe(what);

const flightInfo = z.object({
  flight_number: z.string().describe("The flight number, such as 'HAT001'."),
  date: flightDate('Date of the flight'),
});

const passenger = z.object({
  first_name: z.string().describe("The passenger's first name."),
  last_name: z.string().describe("The passenger's last name."),
  dob: z.string().describe("The passenger's date of birth, in the format 'YYYY-MM-DD'."),
});

const payment = z.object({
  payment_id: z.string().describe("Id of one of the user's payment methods, such as 'credit_card_4421486'."),
  amount: z.number().int().describe('Amount charged to this payment method.'),
});

/** The airline tools' argument schemas by tool name; keys in each tool's `params` order. */
export const AIRLINE_TOOL_SCHEMAS: Readonly<Record<string, z.ZodObject>> = {
  book_reservation: z.object({
    user_id: userId(),
    origin: airport('departure'),
    destination: airport('arrival'),
    flight_type: z.enum(FLIGHT_TYPES).describe('Whether the trip is one way or a round trip.'),
    cabin: cabin('Cabin class for every flight and passenger of the reservation.'),
    flights: z.array(flightInfo).describe('Every flight segment of the trip, outbound and return, each with its number and date.'),
    passengers: z.array(passenger).describe('The travellers on the reservation.'),
    payment_methods: z
      .array(payment)
      .describe("How the total is paid: each entry names one of the user's payment methods and the amount taken from it."),
    total_baggages: z.number().int().describe('Total number of checked bags on the reservation.'),
    nonfree_baggages: z.number().int().describe('How many of the checked bags are paid bags.'),
    insurance: z.enum(INSURANCE).describe('Whether travel insurance is bought for the passengers.'),
  }),
  calculate: z.object({
    expression: z.string().describe("Arithmetic expression using numbers, + - * /, parentheses and spaces, such as '2 * (3 + 4)'."),
  }),
  cancel_reservation: z.object({
    reservation_id: reservationId(),
  }),
  get_flight_status: z.object({
    flight_number: z.string().describe("The flight number, such as 'HAT001'."),
    date: flightDate('Date of the flight'),
  }),
  get_reservation_details: z.object({
    reservation_id: reservationId(),
  }),
  get_user_details: z.object({
    user_id: userId(),
  }),
  list_all_airports: z.object({}),
  search_direct_flight: z.object({
    origin: airport('departure'),
    destination: airport('arrival'),
    date: flightDate('Travel date'),
  }),
  search_onestop_flight: z.object({
    origin: airport('departure'),
    destination: airport('final arrival'),
    date: flightDate('Date the first flight leaves'),
  }),
  send_certificate: z.object({
    user_id: userId(),
    amount: z.number().int().describe('Value of the certificate.'),
  }),
  transfer_to_human_agents: z.object({
    summary: z.string().describe("A short summary of the user's issue, for the human agent."),
  }),
  update_reservation_baggages: z.object({
    reservation_id: reservationId(),
    total_baggages: z.number().int().describe('New total number of checked bags.'),
    nonfree_baggages: z.number().int().describe('New number of paid checked bags.'),
    payment_id: z.string().describe("Id of the user's payment method that pays for any added paid bags, such as 'credit_card_4421486'."),
  }),
  update_reservation_flights: z.object({
    reservation_id: reservationId(),
    cabin: cabin('Cabin class of the reservation after the change.'),
    flights: z
      .array(flightInfo)
      .describe('The complete new itinerary: every flight segment of the reservation, including the ones that stay unchanged.'),
    payment_id: z
      .string()
      .describe("Id of the user's payment method that pays or receives the price difference, such as 'credit_card_4421486'."),
  }),
  update_reservation_passengers: z.object({
    reservation_id: reservationId(),
    passengers: z.array(passenger).describe('The full new list of passengers; it must have as many entries as the current one.'),
  }),
};
