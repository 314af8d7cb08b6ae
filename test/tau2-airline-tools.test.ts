import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { AIRLINE_TOOLS, AIRLINE_TOOLSET, type AirlineDb } from '../src/domains/tau2/airline/index.js';
import { canonicalDbHash, withModelDefaults } from '../src/domains/tau2/canonical-db.js';
import { callDomainTool } from '../src/domains/domain-tool.js';
import { tau2DirForTests } from './support/tau2-dir.js';

const initial = withModelDefaults(
  'airline',
  JSON.parse(readFileSync(join(tau2DirForTests(), 'airline', 'db.json'), 'utf8')) as Record<string, unknown>,
) as unknown as AirlineDb;
const INITIAL_HASH = '124e39a664b56402bcd09cb8a6a9cece6acb8462337c969799d5658e3250f263';

let db: AirlineDb;
beforeEach(() => {
  db = structuredClone(initial);
});

const call = (name: string, args: Record<string, unknown>) => callDomainTool(AIRLINE_TOOLSET, db, name, args);
const hash = () => canonicalDbHash('airline', db as unknown as Record<string, unknown>);
const fails = (name: string, args: Record<string, unknown>, message: string) => {
  expect(call(name, args)).toEqual({ output: `Error: ${message}`, error: true });
};
/** A failed write leaves the database as it was. */
const failsCleanly = (name: string, args: Record<string, unknown>, message: string) => {
  fails(name, args, message);
  expect(hash()).toBe(INITIAL_HASH);
};
const json = (output: string) => JSON.parse(output) as Record<string, unknown>;

// raj_sanchez_7340: credit_card_7891819, gift_card_4964153 (163.0), gift_card_3226531 (50.0),
// certificate_4594761 (150.0). HAT001 (PHL→LGA) on 2024-05-16: economy 122, 10 seats.
const USER = 'raj_sanchez_7340';
const booking = (overrides: Record<string, unknown> = {}) => ({
  user_id: USER,
  origin: 'PHL',
  destination: 'LGA',
  flight_type: 'one_way',
  cabin: 'economy',
  flights: [{ flight_number: 'HAT001', date: '2024-05-16' }],
  passengers: [{ first_name: 'Raj', last_name: 'Sanchez', dob: '1965-09-13' }],
  payment_methods: [{ payment_id: 'credit_card_7891819', amount: 122 }],
  total_baggages: 0,
  nonfree_baggages: 0,
  insurance: 'no',
  ...overrides,
});

describe('airline toolset', () => {
  it('has the 14 tools', () => {
    expect([...AIRLINE_TOOLS.keys()].sort()).toEqual(
      [
        'book_reservation',
        'calculate',
        'cancel_reservation',
        'get_flight_status',
        'get_reservation_details',
        'get_user_details',
        'list_all_airports',
        'search_direct_flight',
        'search_onestop_flight',
        'send_certificate',
        'transfer_to_human_agents',
        'update_reservation_baggages',
        'update_reservation_flights',
        'update_reservation_passengers',
      ].sort(),
    );
  });

  it("reports Python's call errors", () => {
    fails('think', {}, "Tool 'think' not found.");
    fails('get_user_details', {}, "AirlineTools.get_user_details() missing 1 required positional argument: 'user_id'");
    fails('get_user_details', { user_id: USER, extra: 1 }, "AirlineTools.get_user_details() got an unexpected keyword argument 'extra'");
    fails('get_flight_status', {}, "AirlineTools.get_flight_status() missing 2 required positional arguments: 'flight_number' and 'date'");
    fails(
      'update_reservation_baggages',
      { reservation_id: 'Q69X3R' },
      "AirlineTools.update_reservation_baggages() missing 3 required positional arguments: 'total_baggages', 'nonfree_baggages' and 'payment_id'",
    );
  });
});

describe('read tools', () => {
  it('get_user_details: the user in model order, amounts as floats; unknown users', () => {
    const { output, error } = call('get_user_details', { user_id: USER });
    expect(error).toBe(false);
    expect(
      output.startsWith('{"user_id": "raj_sanchez_7340", "name": {"first_name": "Raj", "last_name": "Sanchez"}, "address": {"address1": '),
    ).toBe(true);
    expect(output).toContain('"gift_card_3226531": {"source": "gift_card", "id": "gift_card_3226531", "amount": 50.0}');
    expect(output).toContain('"membership": "silver", "reservations": ["MZDDS4", "60RX9E", "S5IK51", "OUEA45", "Q69X3R"]}');
    fails('get_user_details', { user_id: 'nobody' }, 'User nobody not found');
  });

  it('get_reservation_details: flights start with flight_number; status null; unknown reservations', () => {
    const { output } = call('get_reservation_details', { reservation_id: 'Q69X3R' });
    expect(output).toContain('"flights": [{"flight_number": "HAT243", "origin": ');
    expect(output.endsWith('"insurance": "no", "status": null}')).toBe(true);
    fails('get_reservation_details', { reservation_id: 'XXXXXX' }, 'Reservation XXXXXX not found');
  });

  it('get_flight_status: the bare status; flight and date lookups', () => {
    expect(call('get_flight_status', { flight_number: 'HAT001', date: '2024-05-01' })).toEqual({ output: 'landed', error: false });
    expect(call('get_flight_status', { flight_number: 'HAT001', date: '2024-05-03' }).output).toBe('cancelled');
    expect(call('get_flight_status', { flight_number: 'HAT001', date: '2024-05-16' }).output).toBe('available');
    fails('get_flight_status', { flight_number: 'HAT999', date: '2024-05-16' }, 'Flight HAT999 not found');
    fails('get_flight_status', { flight_number: 'HAT001', date: '2024-06-01' }, 'Flight HAT001 not found on date 2024-06-01');
  });

  it('list_all_airports: the fixed 20 airports', () => {
    const airports = JSON.parse(call('list_all_airports', {}).output) as Array<{ iata: string; city: string }>;
    expect(airports).toHaveLength(20);
    expect(
      call('list_all_airports', {}).output.startsWith('[{"iata": "SFO", "city": "San Francisco"}, {"iata": "JFK", "city": "New York"}'),
    ).toBe(true);
    expect(airports.at(-1)).toEqual({ iata: 'LGA', city: 'LaGuardia' });
  });

  it('search_direct_flight: available flights with date null, or an empty list', () => {
    const { output } = call('search_direct_flight', { origin: 'PHL', destination: 'LGA', date: '2024-05-16' });
    expect(output).toContain(
      '{"flight_number": "HAT001", "origin": "PHL", "destination": "LGA", "status": "available", "scheduled_departure_time_est": "06:00:00", "scheduled_arrival_time_est": "07:00:00", "date": null, "available_seats": {"basic_economy": 16, "economy": 10, "business": 13}, "prices": {"basic_economy": 87, "economy": 122, "business": 471}}',
    );
    expect(call('search_direct_flight', { origin: 'PHL', destination: 'LGA', date: '2024-05-03' }).output).not.toContain('"HAT001"');
    expect(call('search_direct_flight', { origin: 'PHL', destination: 'XXX', date: '2024-05-16' }).output).toBe('[]');
  });

  it('search_onestop_flight: pairs with dates set; next-day legs on the unpadded next date', () => {
    const pairs = JSON.parse(call('search_onestop_flight', { origin: 'SFO', destination: 'JFK', date: '2024-05-16' }).output) as Array<
      Array<Record<string, string>>
    >;
    expect(pairs.length).toBeGreaterThan(0);
    for (const [first, second] of pairs) {
      expect(first?.['date']).toBe('2024-05-16');
      expect(second?.['origin']).toBe(first?.['destination']);
      expect(second?.['destination']).toBe('JFK');
      expect(second?.['date']).toBe(first?.['scheduled_arrival_time_est']?.includes('+1') ? '2024-05-17' : '2024-05-16');
    }
    expect(pairs.some(([, second]) => second?.['date'] === '2024-05-17')).toBe(true);
  });
});

describe('book_reservation', () => {
  it('books, charges gift cards, removes used certificates, takes seats', () => {
    const payments = [
      { payment_id: 'gift_card_4964153', amount: 100 },
      { payment_id: 'certificate_4594761', amount: 22 },
    ];
    const { output, error } = call('book_reservation', booking({ payment_methods: payments }));
    expect(error).toBe(false);
    expect(output).toBe(
      '{"reservation_id": "HATHAT", "user_id": "raj_sanchez_7340", "origin": "PHL", "destination": "LGA", "flight_type": "one_way", "cabin": "economy", ' +
        '"flights": [{"flight_number": "HAT001", "origin": "PHL", "destination": "LGA", "date": "2024-05-16", "price": 122}], ' +
        '"passengers": [{"first_name": "Raj", "last_name": "Sanchez", "dob": "1965-09-13"}], ' +
        '"payment_history": [{"payment_id": "gift_card_4964153", "amount": 100}, {"payment_id": "certificate_4594761", "amount": 22}], ' +
        '"created_at": "2024-05-15T15:00:00", "total_baggages": 0, "nonfree_baggages": 0, "insurance": "no", "status": null}',
    );
    const user = call('get_user_details', { user_id: USER }).output;
    expect(user).toContain('"gift_card_4964153": {"source": "gift_card", "id": "gift_card_4964153", "amount": 63.0}');
    expect(user).not.toContain('certificate_4594761');
    expect(user).toContain('"Q69X3R", "HATHAT"]');
    expect(db.flights['HAT001']?.dates['2024-05-16']?.available_seats?.['economy']).toBe(9);
  });

  it('hands out HATHAT, HATHAU, HATHAV, then Too many reservations', () => {
    for (const id of ['HATHAT', 'HATHAU', 'HATHAV']) expect(json(call('book_reservation', booking()).output)['reservation_id']).toBe(id);
    fails('book_reservation', booking(), 'Too many reservations');
  });

  it('checks the user before anything else, then the reservation fields', () => {
    failsCleanly('book_reservation', booking({ user_id: 'nobody', cabin: 'first' }), 'User nobody not found');
    const { output, error } = call('book_reservation', booking({ cabin: 'first' }));
    expect(error).toBe(true);
    // Pydantic's text is approximated; its first lines keep pydantic's shape.
    expect(output.split('\n').slice(0, 2)).toEqual(['Error: 1 validation error for Reservation', 'cabin']);
    expect(hash()).toBe(INITIAL_HASH);
  });

  it('validates flights, passengers and payments into models first', () => {
    const { output } = call('book_reservation', booking({ flights: [{ flight_number: 'HAT001' }], user_id: 'nobody' }));
    expect(output.split('\n').slice(0, 3)).toEqual([
      'Error: 1 validation error for FlightInfo',
      'date',
      "  Field required [type=missing, input_value={'flight_number': 'HAT001'}, input_type=dict]",
    ]);
    const fractional = call('book_reservation', booking({ payment_methods: [{ payment_id: 'credit_card_7891819', amount: 122.5 }] }));
    expect(fractional.output.split('\n')[0]).toBe('Error: 1 validation error for Payment');
    expect(hash()).toBe(INITIAL_HASH);
  });

  it('checks each flight in order: lookup, date, availability, seats', () => {
    failsCleanly('book_reservation', booking({ flights: [{ flight_number: 'HAT999', date: '2024-05-16' }] }), 'Flight HAT999 not found');
    failsCleanly(
      'book_reservation',
      booking({ flights: [{ flight_number: 'HAT001', date: '2024-06-01' }] }),
      'Flight HAT001 not found on date 2024-06-01',
    );
    failsCleanly(
      'book_reservation',
      booking({ flights: [{ flight_number: 'HAT001', date: '2024-05-03' }] }),
      'Flight HAT001 not available on date 2024-05-03',
    );
    // HAT001 on 2024-05-25 has one basic economy seat.
    const two = [
      { first_name: 'Raj', last_name: 'Sanchez', dob: '1965-09-13' },
      { first_name: 'Mia', last_name: 'Sanchez', dob: '1990-01-01' },
    ];
    failsCleanly(
      'book_reservation',
      booking({ cabin: 'basic_economy', passengers: two, flights: [{ flight_number: 'HAT001', date: '2024-05-25' }] }),
      'Not enough seats on flight HAT001',
    );
  });

  it('checks payments: method, balance, then the total (with insurance and bag fees)', () => {
    failsCleanly(
      'book_reservation',
      booking({ payment_methods: [{ payment_id: 'gift_card_0000000', amount: 122 }] }),
      'Payment method gift_card_0000000 not found',
    );
    failsCleanly(
      'book_reservation',
      booking({ payment_methods: [{ payment_id: 'gift_card_3226531', amount: 122 }] }),
      'Not enough balance in payment method gift_card_3226531',
    );
    failsCleanly(
      'book_reservation',
      booking({
        insurance: 'yes',
        nonfree_baggages: 1,
        total_baggages: 1,
        payment_methods: [{ payment_id: 'credit_card_7891819', amount: 100 }],
      }),
      'Payment amount does not add up, total price is 202, but paid 100',
    );
  });
  it('checks a certificate balance too', () => {
    // Two economy seats on HAT001: 244. certificate_4594761 holds 150.
    const two = [
      { first_name: 'Raj', last_name: 'Sanchez', dob: '1965-09-13' },
      { first_name: 'Mia', last_name: 'Sanchez', dob: '1990-01-01' },
    ];
    const payments = [
      { payment_id: 'certificate_4594761', amount: 151 },
      { payment_id: 'credit_card_7891819', amount: 93 },
    ];
    failsCleanly(
      'book_reservation',
      booking({ passengers: two, payment_methods: payments }),
      'Not enough balance in payment method certificate_4594761',
    );
  });

  it('checks repeated payment entries separately: a gift card can go negative', () => {
    const card = 'gift_card_3226531';
    const payments = [50, 50, 22].map((amount) => ({ payment_id: card, amount }));
    expect(call('book_reservation', booking({ payment_methods: payments })).error).toBe(false);
    expect(call('get_user_details', { user_id: USER }).output).toContain(
      `"${card}": {"source": "gift_card", "id": "${card}", "amount": -72.0}`,
    );
  });

  it("raises Python's KeyError when a certificate is listed twice (after charging earlier entries)", () => {
    const payments = [
      { payment_id: 'certificate_4594761', amount: 61 },
      { payment_id: 'certificate_4594761', amount: 61 },
    ];
    fails('book_reservation', booking({ payment_methods: payments }), "'certificate_4594761'");
    expect(db.reservations['HATHAT']).toBeUndefined();
  });
});

describe('cancel_reservation', () => {
  it('refunds every payment and marks the reservation cancelled, even twice', () => {
    const first = json(call('cancel_reservation', { reservation_id: 'Q69X3R' }).output);
    expect(first['status']).toBe('cancelled');
    expect(first['payment_history']).toEqual([
      { payment_id: 'gift_card_3226531', amount: 430 },
      { payment_id: 'gift_card_3226531', amount: -430 },
    ]);
    expect((json(call('cancel_reservation', { reservation_id: 'Q69X3R' }).output)['payment_history'] as unknown[]).length).toBe(4);
    fails('cancel_reservation', { reservation_id: 'XXXXXX' }, 'Reservation XXXXXX not found');
  });
});

describe('update_reservation_baggages', () => {
  const bags = (overrides: Record<string, unknown>) => ({
    reservation_id: 'Q69X3R',
    total_baggages: 2,
    nonfree_baggages: 1,
    payment_id: 'credit_card_7891819',
    ...overrides,
  });

  it('charges 50 per added non-free bag; decreases are free', () => {
    const updated = json(call('update_reservation_baggages', bags({})).output);
    expect(updated['payment_history']).toEqual([
      { payment_id: 'gift_card_3226531', amount: 430 },
      { payment_id: 'credit_card_7891819', amount: 50 },
    ]);
    expect([updated['total_baggages'], updated['nonfree_baggages']]).toEqual([2, 1]);
    const decreased = json(call('update_reservation_baggages', bags({ total_baggages: 0, nonfree_baggages: 0 })).output);
    expect((decreased['payment_history'] as unknown[]).length).toBe(2);
  });

  it('runs the payment check in order, even for a free change', () => {
    failsCleanly('update_reservation_baggages', bags({ reservation_id: 'XXXXXX' }), 'Reservation XXXXXX not found');
    failsCleanly('update_reservation_baggages', bags({ payment_id: 'credit_card_0000000' }), 'Payment method not found');
    failsCleanly(
      'update_reservation_baggages',
      bags({ nonfree_baggages: 0, payment_id: 'certificate_4594761' }),
      'Certificate cannot be used to update reservation',
    );
    failsCleanly(
      'update_reservation_baggages',
      bags({ nonfree_baggages: 2, payment_id: 'gift_card_3226531' }),
      'Gift card balance is not enough',
    );
  });

  it("looks up the reservation's owner", () => {
    delete db.users[USER];
    const before = hash();
    fails('update_reservation_baggages', bags({}), `User ${USER} not found`);
    expect(hash()).toBe(before);
  });
});

describe('update_reservation_flights', () => {
  // Q69X3R: economy, one passenger, HAT243 and HAT024 on 05-20 (166, 162), HAT206 on 05-23 (102).
  const itinerary = [
    { flight_number: 'HAT243', date: '2024-05-20' },
    { flight_number: 'HAT024', date: '2024-05-20' },
    { flight_number: 'HAT206', date: '2024-05-23' },
  ];
  const change = (overrides: Record<string, unknown>) => ({
    reservation_id: 'Q69X3R',
    cabin: 'economy',
    flights: itinerary,
    payment_id: 'credit_card_7891819',
    ...overrides,
  });

  it('keeps unchanged segments at their old price: no payment', () => {
    const updated = json(call('update_reservation_flights', change({})).output);
    expect((updated['payment_history'] as unknown[]).length).toBe(1);
  });

  it('prices a cabin change at current prices and credits a gift card refund', () => {
    // Basic economy now: HAT243 60 + HAT206 57 = 117, against 430 paid: a refund of 313.
    const flights = [itinerary[0], itinerary[2]];
    const updated = json(
      call('update_reservation_flights', change({ cabin: 'basic_economy', flights, payment_id: 'gift_card_3226531' })).output,
    );
    expect(updated['cabin']).toBe('basic_economy');
    expect((updated['payment_history'] as unknown[]).at(-1)).toEqual({ payment_id: 'gift_card_3226531', amount: -313 });
    expect(db.users[USER]?.payment_methods['gift_card_3226531']?.amount).toBe(363);
  });

  it('checks new flights, then the payment', () => {
    failsCleanly('update_reservation_flights', change({ reservation_id: 'XXXXXX' }), 'Reservation XXXXXX not found');
    failsCleanly(
      'update_reservation_flights',
      change({ flights: [{ flight_number: 'HAT001', date: '2024-05-03' }] }),
      'Flight HAT001 not available on date 2024-05-03',
    );
    failsCleanly(
      'update_reservation_flights',
      {
        reservation_id: '60RX9E',
        cabin: 'economy',
        flights: [{ flight_number: 'HAT001', date: '2024-05-29' }],
        payment_id: 'credit_card_7891819',
      },
      'Not enough seats on flight HAT001',
    );
    failsCleanly('update_reservation_flights', change({ payment_id: 'gift_card_0000000' }), 'Payment method not found');
    failsCleanly(
      'update_reservation_flights',
      change({ payment_id: 'certificate_4594761' }),
      'Certificate cannot be used to update reservation',
    );
    failsCleanly(
      'update_reservation_flights',
      change({ cabin: 'business', payment_id: 'gift_card_3226531' }),
      'Gift card balance is not enough',
    );
    // An unknown cabin is used as a dict key: Python's KeyError text.
    failsCleanly('update_reservation_flights', change({ cabin: 'first' }), "'first'");
  });

  it('looks up each new flight, then its date', () => {
    failsCleanly(
      'update_reservation_flights',
      change({ flights: [itinerary[0], { flight_number: 'HAT999', date: '2024-05-20' }] }),
      'Flight HAT999 not found',
    );
    failsCleanly(
      'update_reservation_flights',
      change({ flights: [{ flight_number: 'HAT001', date: '2024-06-01' }] }),
      'Flight HAT001 not found on date 2024-06-01',
    );
  });

  it("looks up the reservation's owner before the flights", () => {
    delete db.users[USER];
    const before = hash();
    fails('update_reservation_flights', change({ flights: [{ flight_number: 'HAT999', date: '2024-05-20' }] }), `User ${USER} not found`);
    expect(hash()).toBe(before);
  });
});

describe('update_reservation_passengers', () => {
  it('replaces passengers; the count must match', () => {
    const passengers = [{ first_name: 'Anya', last_name: 'Garcia', dob: '1992-11-12' }];
    failsCleanly('update_reservation_passengers', { reservation_id: 'MZDDS4', passengers }, 'Number of passengers does not match');
    expect(json(call('update_reservation_passengers', { reservation_id: 'Q69X3R', passengers }).output)['passengers']).toEqual(passengers);
    fails('update_reservation_passengers', { reservation_id: 'XXXXXX', passengers }, 'Reservation XXXXXX not found');
  });
});

describe('send_certificate', () => {
  it('adds up to three certificates, stored as floats', () => {
    expect(call('send_certificate', { user_id: USER, amount: 100 })).toEqual({
      output: 'Certificate certificate_3221322 added to user raj_sanchez_7340 with amount 100.',
      error: false,
    });
    expect(call('get_user_details', { user_id: USER }).output).toContain(
      '"certificate_3221322": {"source": "certificate", "id": "certificate_3221322", "amount": 100.0}}',
    );
    expect(call('send_certificate', { user_id: USER, amount: 50.5 }).output).toBe(
      'Certificate certificate_3221323 added to user raj_sanchez_7340 with amount 50.5.',
    );
    expect(call('send_certificate', { user_id: USER, amount: 1 }).error).toBe(false);
    fails('send_certificate', { user_id: USER, amount: 1 }, 'Too many certificates');
    fails('send_certificate', { user_id: 'nobody', amount: 1 }, 'User nobody not found');
  });
});

describe('generic tools', () => {
  it('transfer_to_human_agents touches nothing', () => {
    expect(call('transfer_to_human_agents', { summary: 'help' })).toEqual({ output: 'Transfer successful', error: false });
    expect(hash()).toBe(INITIAL_HASH);
  });

  // Expected values are CPython 3.11's `str(round(float(eval(e)), 2))`.
  it.each([
    ['2 + 2', '4.0'],
    ['10 / 4', '2.5'],
    ['1/3', '0.33'],
    ['2 * ((350 - 122) + (499 - 127))', '1200.0'],
    ['0.125', '0.12'],
    ['0.375', '0.38'],
    ['2.675', '2.67'],
    ['1.005', '1.0'],
    ['-0.125', '-0.12'],
    ['-0.001', '-0.0'],
    ['7 // 2', '3.0'],
    ['-7 // 2', '-4.0'],
    ['7.5 // 2', '3.0'],
    ['2 ** 10', '1024.0'],
    ['-2 ** 2', '-4.0'],
    ['2 ** -1', '0.5'],
    ['0.1 + 0.2', '0.3'],
    ['123456789 * 987654321', '1.2193263111263526e+17'],
    ['99999999999999999999 + 1', '1e+20'],
    [' 1 + 1', '2.0'],
    ['.5 + 5.', '5.5'],
  ])('calculate(%j) = %s', (expression, expected) => {
    expect(call('calculate', { expression })).toEqual({ output: expected, error: false });
  });

  it.each([
    ['2 + x', 'Invalid characters in expression'],
    ['1e5', 'Invalid characters in expression'],
    ['1/0', 'division by zero'],
    ['1.0/0', 'float division by zero'],
    ['1//0', 'integer division or modulo by zero'],
    ['1.0//0', 'float floor division by zero'],
    ['0 ** -1', '0.0 cannot be raised to a negative power'],
    ['1 +', 'invalid syntax (<string>, line 1)'],
    ['1 2', 'invalid syntax (<string>, line 1)'],
    ['1..5', 'invalid syntax (<string>, line 1)'],
    ['(1', "'(' was never closed (<string>, line 1)"],
    ['1)', "unmatched ')' (<string>, line 1)"],
    ['()', "float() argument must be a string or a real number, not 'tuple'"],
    ['2(3)', "'int' object is not callable"],
    ['(-8) ** 0.5', "float() argument must be a string or a real number, not 'complex'"],
    ['10.0 ** 400', "(34, 'Numerical result out of range')"],
    ['007', 'leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)'],
  ])('calculate(%j) fails with %s', (expression, message) => {
    fails('calculate', { expression }, message);
  });
});
