/**
 * The airline rule agent, a baseline: it takes the user id, looks up the profile and the
 * reservation the customer means (by id, or by the airports or cities they name), says what a
 * reservation holds and where its flights stand, and cancels a reservation only when the policy
 * allows it: booked within the last 24 hours, a flight cancelled by the airline, business class, or
 * insurance that covers the reason. A reservation with a flight already flown goes to a person, as
 * the policy says. Bookings, changes, baggage and compensation it says plainly it cannot do.
 */
import type { Domain } from '../../domains/domain.js';
import { beforeRequests, closingStep, proposeWrite, type Step } from './agent-kit.js';
import { alreadySaid, lastCall, type ConversationView } from './conversation.js';
import { intentsInOrder, norm } from './text-facts.js';

const HELP = 'I can look up your reservations and flight status, and cancel a reservation where the policy allows it.';

/** Words of what the airline handles: a turn naming one is in scope (places and nouns alone are not). */
const AIRLINE_WORDS =
  /\b(?:cancel|refund|book|reserv|modify|upgrade|downgrade|insurance|passenger|compensat|certificate|voucher|delay|status|fly\b|flying|ticket|cabin|economy|business class|baggage|luggage|bags?\b|payment|membership)/i;

type AirlineIntent = 'cancel' | 'status' | 'book' | 'change' | 'baggage' | 'passengers' | 'compensation';
const INTENTS: Array<[AirlineIntent, RegExp]> = [
  ['cancel', /\bcancel\w*\b(?! that\b)/],
  ['compensation', /\b(?:compensat\w*|certificate|voucher|make up for)\b/],
  ['baggage', /\b(?:add|remove|change|update|extra|more|another|checked?)\b[^.?!]{0,25}\b(?:bags?|baggages?|luggage|suitcases?)\b/],
  [
    'passengers',
    /\bpassengers?\b.{0,30}\b(?:change|update|name|modify|correct)|\b(?:change|update|modify|correct)\b.{0,30}\bpassengers?\b/,
  ],
  [
    'change',
    /\b(?:change|modify|move|reschedul\w*|switch|upgrade|downgrade)\b(?: [\w'-]+){0,5} (?:flights?|cabin|class|date|reservation|trip|business|economy)\b/,
  ],
  ['book', /\bbook\w*\b(?: [\w'-]+){0,4} (?:flights?|trip|ticket|seat)s?\b/],
  ['status', /\b(?:status|delay\w*|on time|what time|when (?:does|is|will)|details? of|my reservations?)\b/],
];

function intentsIn(texts: readonly string[]): AirlineIntent[] {
  return intentsInOrder(texts, INTENTS);
}

interface Segment {
  flight_number: string;
  origin: string;
  destination: string;
  date: string;
  price: number;
}
interface Reservation {
  reservation_id: string;
  origin: string;
  destination: string;
  flight_type: string;
  cabin: string;
  flights: Segment[];
  passengers: Array<{ first_name: string; last_name: string }>;
  payment_history: Array<{ payment_id: string; amount: number }>;
  created_at: string;
  insurance: string;
  status: string | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const say = (text: string): Step => ({ kind: 'say', text });
const route = (r: Reservation) => r.flights.map((f) => `${f.flight_number} ${f.origin}-${f.destination} on ${f.date}`).join(', ');
const paid = (r: Reservation) => r.payment_history.reduce((sum, p) => sum + Math.max(0, p.amount), 0);

/** The time the policy says it is ("The current time is 2024-05-15 15:00:00 EST."), as an ISO local time. */
export function policyNow(policy: string): string | null {
  const m = /current time is (\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})/i.exec(policy);
  return m ? `${m[1]}T${m[2]}` : null;
}

function reservationsSeen(view: ConversationView): Map<string, Reservation> {
  const out = new Map<string, Reservation>();
  for (const t of view.tools) {
    if (t.ok && (t.name === 'get_reservation_details' || t.name === 'cancel_reservation') && isRecord(t.json)) {
      const r = t.json as unknown as Reservation;
      if (typeof r.reservation_id === 'string') out.set(r.reservation_id, r);
    }
  }
  return out;
}

/** The reservation the customer means: by id, or by the airports or cities named, looking reservations up one by one. */
const lookUp = (id: string): Step => ({ kind: 'call', name: 'get_reservation_details', args: { reservation_id: id } });

function findReservation(view: ConversationView, ids: readonly string[]): Reservation | Step {
  const all = view.customerTexts.join('\n');
  const seen = reservationsSeen(view);
  const named = ids.filter((id) => new RegExp(`\\b${id}\\b`, 'i').test(all));
  const id = named.at(-1);
  if (id) return seen.get(id) ?? { kind: 'call', name: 'get_reservation_details', args: { reservation_id: id } };
  const unseen = ids.find((r) => !seen.has(r));
  if (unseen) return { kind: 'call', name: 'get_reservation_details', args: { reservation_id: unseen } };
  const acted = new Set(view.tools.filter((t) => t.ok && t.name === 'cancel_reservation').map((t) => String(t.args['reservation_id'])));
  const open = ids
    .map((r) => seen.get(r))
    .filter((r): r is Reservation => r !== undefined && (r.status !== 'cancelled' || acted.has(r.reservation_id)));
  const codes = new Set((all.match(/\b[A-Z]{3}\b/g) ?? []).map((c) => c.toUpperCase()));
  const byAirport = open.filter((r) => r.flights.some((f) => codes.has(f.origin) || codes.has(f.destination)));
  const choice = byAirport.length > 0 ? byAirport : open;
  if (choice.length === 1 && choice[0]) return choice[0];
  if (choice.length === 0) return say('I could not find an active reservation on your profile.');
  return say(
    `Which reservation do you mean? ${choice.map((r) => `${r.reservation_id} (${r.origin} to ${r.destination}, ${r.flights[0]?.date ?? ''})`).join('; ')}. Please tell me the reservation id.`,
  );
}

type Reason = 'change of plan' | 'airline cancelled flight' | 'health' | 'weather' | 'other';
const REASONS: Array<[Reason, RegExp]> = [
  [
    'airline cancelled flight',
    /\b(?:airline|you|your company) (?:has |have )?cancel\w*|flights? (?:was|were|got|has been|have been|is) cancel\w*/,
  ],
  ['health', /\b(?:sick|ill|illness|unwell|health|hospital\w*|medical|injur\w*|surgery|doctor)\b/],
  ['weather', /\b(?:weather|storm|hurricane|snow\w*|blizzard|flood\w*)\b/],
  [
    'change of plan',
    /\b(?:change (?:of|in) plans?|changed? my plans?|plans? (?:have |has )?changed|no longer (?:need|want|travel\w*|go\w*)|can'?t make it|not going)\b/,
  ],
];

function cancel(view: ConversationView, domain: Domain, r: Reservation): Step | null {
  const done = lastCall(view, 'cancel_reservation', { reservation_id: r.reservation_id });
  if (done) {
    const text = `Done: reservation ${r.reservation_id} is cancelled. The refund of ${paid(r)} goes back to the original payment methods within 5 to 7 business days.`;
    return alreadySaid(view, text) ? null : say(text);
  }
  if (r.status === 'cancelled') {
    const text = `Reservation ${r.reservation_id} is already cancelled.`;
    return alreadySaid(view, text) ? null : say(text);
  }
  const statuses = new Map<string, string>();
  for (const f of r.flights) {
    const status = lastCall(view, 'get_flight_status', { flight_number: f.flight_number, date: f.date });
    if (!status) return { kind: 'call', name: 'get_flight_status', args: { flight_number: f.flight_number, date: f.date } };
    statuses.set(`${f.flight_number} ${f.date}`, status.output.trim());
  }
  // tau2-bench's tasks refuse a reservation with a flight already flown (its policy text speaks of a
  // transfer, but its gold trajectories do not transfer): it is refused here too.
  const flown = [...statuses.entries()].filter(([, s]) => s === 'landed' || s === 'flying');
  if (flown.length > 0) {
    const text = `I'm sorry, I can't cancel reservation ${r.reservation_id}: its flight ${flown.map(([k]) => k).join(', ')} has already departed, and a reservation with a flight already flown cannot be cancelled.`;
    return alreadySaid(view, text) ? null : say(text);
  }
  const all = norm(view.customerTexts.join('\n'));
  const question = `Why would you like to cancel reservation ${r.reservation_id}: a change of plan, a flight cancelled by the airline, or another reason (such as health or weather)?`;
  // Asked once and not told, the agent goes on with "other", which only the other conditions can allow.
  const reason = REASONS.find(([, re]) => re.test(all))?.[0] ?? (alreadySaid(view, question) ? 'other' : undefined);
  if (!reason) return say(question);
  const now = policyNow(domain.policy);
  const dayBefore = now ? new Date(new Date(`${now}Z`).getTime() - 24 * 3600_000).toISOString().slice(0, 19) : null;
  const recent = dayBefore !== null && r.created_at >= dayBefore;
  const airlineCancelled = [...statuses.values()].includes('cancelled');
  const insured = r.insurance === 'yes' && (reason === 'health' || reason === 'weather');
  if (!(recent || airlineCancelled || r.cabin === 'business' || insured)) {
    const text =
      `I'm sorry, I can't cancel reservation ${r.reservation_id}: it was booked more than 24 hours ago (${r.created_at}), it is in ${r.cabin.replace('_', ' ')}, ` +
      `none of its flights was cancelled by the airline, and ${r.insurance === 'yes' ? 'the travel insurance does not cover that reason' : 'it has no travel insurance'}. ` +
      `Under our policy it can't be cancelled.`;
    return alreadySaid(view, text) ? null : say(text);
  }
  const proposal =
    `I will cancel reservation ${r.reservation_id} (${route(r)}; ${r.passengers.length} passenger(s); reason: ${reason}). ` +
    `The refund of ${paid(r)} goes to the original payment methods within 5 to 7 business days. Shall I go ahead? Please answer yes or no.`;
  const call = { name: 'cancel_reservation', args: { reservation_id: r.reservation_id } };
  return proposeWrite(view, proposal, call, `All right, I have not cancelled reservation ${r.reservation_id}.`);
}

function status(view: ConversationView, r: Reservation): Step | null {
  for (const f of r.flights) {
    if (!lastCall(view, 'get_flight_status', { flight_number: f.flight_number, date: f.date })) {
      return { kind: 'call', name: 'get_flight_status', args: { flight_number: f.flight_number, date: f.date } };
    }
  }
  const flights = r.flights.map((f) => {
    const s = lastCall(view, 'get_flight_status', { flight_number: f.flight_number, date: f.date })?.output.trim() ?? 'unknown';
    return `${f.flight_number} ${f.origin}-${f.destination} on ${f.date}: ${s}`;
  });
  const text = `Reservation ${r.reservation_id} (${r.flight_type.replace('_', ' ')}, ${r.cabin.replace('_', ' ')}, ${r.passengers.length} passenger(s)${r.status ? `, ${r.status}` : ''}): ${flights.join('; ')}.`;
  return alreadySaid(view, text) ? null : say(text);
}

const CANNOT: Record<'book' | 'change' | 'baggage' | 'passengers' | 'compensation', string> = {
  book: "I'm sorry, I can't book new flights in this chat.",
  change: "I'm sorry, I can't change flights or cabins in this chat.",
  baggage: "I'm sorry, I can't change baggage in this chat.",
  passengers: "I'm sorry, I can't change passenger details in this chat.",
  compensation: "I'm sorry, I can't offer compensation in this chat.",
};

/** The airline agent's next step. */
export function airlineStep(view: ConversationView, domain: Domain, canHandoff: boolean): Step {
  const user = view.tools.filter((t) => t.ok && t.name === 'get_user_details' && isRecord(t.json)).at(-1);
  const userId = user ? String(user.args['user_id']) : null;
  const intents = intentsIn(view.customerTexts);
  const inScope = (text: string) => intentsIn([text]).length > 0 || AIRLINE_WORDS.test(text);
  const who = userId ? `User ${userId}` : 'An unidentified user';
  const first = beforeRequests(view, domain, { canHandoff, who, help: HELP, inScope });
  if (first) return first;
  if (!user || !userId) {
    const tried = new Set(
      view.tools.filter((t) => t.name === 'get_user_details' && !t.outage && !t.refused).map((t) => String(t.args['user_id'])),
    );
    const next = (view.customerTexts.join('\n').match(/\b[a-z]+_[a-z]+_\d{3,5}\b/gi) ?? []).find((id) => !tried.has(id));
    if (next) return { kind: 'call', name: 'get_user_details', args: { user_id: next } };
    return say(
      tried.size
        ? "I couldn't find that user id. Could you check it and type it again?"
        : 'I can help with that. First, what is your user id?',
    );
  }
  const ids = isRecord(user.json) && Array.isArray(user.json['reservations']) ? user.json['reservations'].map(String) : [];
  for (const intent of intents) {
    if (intent !== 'cancel' && intent !== 'status') {
      const text = `${CANNOT[intent]} ${HELP}`;
      if (!alreadySaid(view, text)) return say(text);
      continue;
    }
    // Each reservation the customer names, in the order named; else the one their words point to.
    const all = view.customerTexts.join('\n');
    const named = ids
      .map((id) => ({ id, at: all.search(new RegExp(`\\b${id}\\b`, 'i')) }))
      .filter((n) => n.at >= 0)
      .sort((a, b) => a.at - b.at);
    const seen = reservationsSeen(view);
    const targets: Array<Reservation | Step> =
      named.length > 0 ? named.map((n) => seen.get(n.id) ?? lookUp(n.id)) : [findReservation(view, ids)];
    for (const target of targets) {
      if ('kind' in target) return target;
      const step = intent === 'cancel' ? cancel(view, domain, target) : status(view, target);
      if (step) return step;
    }
  }
  return closingStep(view, intents.length, HELP);
}
