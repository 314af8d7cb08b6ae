import type { DomainTool } from '../../domain-tool.js';
import { bookReservation } from './book-reservation.js';
import { calculate, transferToHumanAgents } from './generic-tools.js';
import {
  getFlightStatus,
  getReservationDetails,
  getUserDetails,
  listAllAirports,
  searchDirectFlight,
  searchOnestopFlight,
} from './read-tools.js';
import type { AirlineDb } from './types.js';
import {
  cancelReservation,
  sendCertificate,
  updateReservationBaggages,
  updateReservationFlights,
  updateReservationPassengers,
} from './update-tools.js';

export type { AirlineDb } from './types.js';

/** tau2-bench's 14 airline tools by name, in upstream's (alphabetical) order. */
export const AIRLINE_TOOLS: ReadonlyMap<string, DomainTool<AirlineDb>> = new Map(
  [
    bookReservation,
    calculate,
    cancelReservation,
    getFlightStatus,
    getReservationDetails,
    getUserDetails,
    listAllAirports,
    searchDirectFlight,
    searchOnestopFlight,
    sendCertificate,
    transferToHumanAgents,
    updateReservationBaggages,
    updateReservationFlights,
    updateReservationPassengers,
  ].map((tool) => [tool.name, tool]),
);

/** The airline toolset for `callDomainTool` (Python's messages name the class `AirlineTools`). */
export const AIRLINE_TOOLSET = { className: 'AirlineTools', tools: AIRLINE_TOOLS } as const;
