/**
 * The facts a simulated customer knows and gives when asked: read from the scenario's
 * `known_info` (and, in airline and retail, the ids its reason for call names; in billing, the
 * e-mail and code the gold actions use). Every value is an exact substring of the scenario or of
 * the gold actions, so a style can never change an id, a code or a name.
 */
import type { DomainName, GoldAction } from '../../domains/domain.js';
import type { ScriptFact } from '../variant.js';

/** The words in an agent's message that count as asking for a fact of each kind. */
export const ASKED_BY: Readonly<Record<string, readonly string[]>> = {
  user_id: ['user id', 'user_id', 'userid', 'user name', 'username'],
  email: ['email', 'e-mail'],
  new_email: ['new email', 'new e-mail', 'new address'],
  name: ['name'],
  zip: ['zip', 'postal code', 'postcode'],
  order_id: ['order id', 'order number', 'order #', 'order no', 'which order'],
  reservation_id: [
    'reservation id',
    'reservation number',
    'confirmation number',
    'confirmation code',
    'booking reference',
    'booking number',
    'booking code',
    'which reservation',
  ],
  code: ['code', 'verification'],
};

const USER_ID = /\b[a-z]+(?:_[a-z]+)+_\d{4}\b/g;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;
// The customer's own name: after "You are", "Your name is" (and upstream's "You name is"), "called".
const NAME = /\b(?:You are|You're|Your name is|You name is|called)\s+([A-Z][a-z]+(?: [A-Z][a-z]+){0,2})\b/;
const ZIP = /(?<![\d.@_-])\d{5}(?![\d@])/g;
const ORDER_ID = /#?\bW\d{7}\b/g;
// Reservation ids are six capitals and digits; flight numbers (HAT123) are not reservations.
const RESERVATION_ID = /\b(?!HAT\d{3}\b)(?=[A-Z0-9]{6}\b)(?!\d{6}\b)[A-Z0-9]{6}\b/g;
const CODE = /\bcode you receive is (\d{6})\b/;
const NEW_EMAIL = /\bnew e-mail address is ([^\s]+?)\.?(?:\s|$)/;

interface Found {
  key: string;
  value: string;
}

/** The scenario's parts that facts are read from. */
export interface FactSources {
  domain: DomainName;
  knownInfo: string | null;
  reasonForCall: string;
  actions: readonly GoldAction[] | null;
}

function all(re: RegExp, text: string): string[] {
  return [...text.matchAll(re)].map((m) => m[1] ?? m[0]);
}

/**
 * The customer's facts, in the order they appear; a fact is `volunteered` when the opening
 * request already says it. Repeated kinds are numbered (`email`, `email_2`).
 */
export function extractFacts(sources: FactSources, request: string): ScriptFact[] {
  const known = sources.knownInfo ?? '';
  const found: Found[] = [];
  const add = (key: string, value: string) => {
    if (value !== '' && !found.some((f) => f.value === value)) found.push({ key, value });
  };
  const name = NAME.exec(known);
  if (name?.[1]) add('name', name[1]);
  for (const id of all(USER_ID, known)) add('user_id', id);
  const newEmail = NEW_EMAIL.exec(known)?.[1];
  for (const email of all(EMAIL, known)) add(email === newEmail ? 'new_email' : 'email', email);
  if (sources.domain === 'retail') {
    for (const zip of all(ZIP, known)) add('zip', zip);
    for (const id of [...all(ORDER_ID, known), ...all(ORDER_ID, sources.reasonForCall)]) add('order_id', id);
  }
  if (sources.domain === 'airline') {
    for (const id of [...all(RESERVATION_ID, known), ...all(RESERVATION_ID, sources.reasonForCall)]) add('reservation_id', id);
  }
  if (sources.domain === 'billing') {
    const code = CODE.exec(known)?.[1];
    if (code) add('code', code);
    // The gold actions carry what the customer must give for them to succeed.
    for (const action of sources.actions ?? []) {
      const args = action.arguments;
      if (action.name === 'find_customer_by_email' && typeof args['email'] === 'string') add('email', args['email']);
      if (action.name === 'verify_customer' && typeof args['code'] === 'string') add('code', args['code']);
      if (action.name === 'update_email' && typeof args['new_email'] === 'string') add('new_email', args['new_email']);
    }
  }
  const seen = new Map<string, number>();
  return found.map(({ key, value }) => {
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return {
      key: n === 1 ? key : `${key}_${n}`,
      value,
      askedBy: ASKED_BY[key] ?? [key.replace(/_/g, ' ')],
      volunteered: request.includes(value),
    };
  });
}
