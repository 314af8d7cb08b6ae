/**
 * The retail rule agent, a baseline: it authenticates the customer by e-mail (or name and zip),
 * looks up their profile and the order they mean (by id, or by the products they name), says where
 * an order stands, cancels a pending order for one of the two reasons the policy accepts, and
 * returns items of a delivered order to the original payment method. Exchanges and modifications
 * it says plainly it cannot do.
 */
import type { Domain } from '../../domains/domain.js';
import { beforeRequests, closingStep, proposeWrite, type Step } from './agent-kit.js';
import { alreadySaid, lastCall, type ConversationView } from './conversation.js';
import { emailsIn, intentsInOrder, namesIn, norm, zipsIn } from './text-facts.js';

const HELP = 'I can look up your orders and tell you where they stand, cancel a pending order, and return items from a delivered order.';

/** Words of what retail handles: a turn naming one is in scope (orders and accounts alone are not). */
const RETAIL_WORDS =
  /\b(?:cancel|return|refund|exchange|swap|deliver|ship|track|status|address|payment|pay|paypal|price|cost|size|colou?r|option|item|modify|money|arriv)/i;

type RetailIntent = 'cancel' | 'return' | 'exchange' | 'modify' | 'status';
const INTENTS: Array<[RetailIntent, RegExp]> = [
  ['cancel', /\bcancel\w*\b(?! that\b)/],
  ['return', /\breturn\w*\b|\bsend (?:it|them) back\b|\bfull refund\b/],
  ['exchange', /\bexchang\w*|\bswap\w*|\btrade (?:it|them) for\b/],
  ['modify', /\b(?:change|modify|update|switch|edit)\b(?: [\w'-]+){0,5} (?:address|payment|size|colou?r|option|item)s?\b/],
  ['status', /\b(?:status|where (?:is|are)|track\w*|shipped|deliver\w*|arriv\w*|when will|what did i order|how much)\b/],
];

function intentsIn(texts: readonly string[]): RetailIntent[] {
  // The account's e-mail address is not an address this agent changes.
  return intentsInOrder(
    texts.map((text) => text.replace(/\be-?mail address(?:es)?\b/gi, 'email')),
    INTENTS,
  );
}

interface OrderItem {
  name: string;
  item_id: string;
  price: number;
  options: Record<string, unknown>;
}
interface Order {
  order_id: string;
  status: string;
  items: OrderItem[];
  fulfillments: Array<{ tracking_id: string[]; item_ids: string[] }>;
  payment_history: Array<{ transaction_type: string; amount: number; payment_method_id: string }>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const say = (text: string): Step => ({ kind: 'say', text });
const total = (items: readonly OrderItem[]) => items.reduce((sum, i) => sum + Math.round(i.price * 100), 0) / 100;
const itemsText = (items: readonly OrderItem[]) => items.map((i) => i.name).join(', ');

/** The user id the look-ups found, if any. */
function userIdOf(view: ConversationView): string | null {
  const found = view.tools.filter((t) => t.ok && (t.name === 'find_user_id_by_email' || t.name === 'find_user_id_by_name_zip')).at(-1);
  return found ? found.output.trim() : null;
}

function authenticate(view: ConversationView): Step {
  const all = view.customerTexts.join('\n');
  const lookups = view.tools.filter((t) => !t.outage && !t.refused);
  const triedEmails = new Set(lookups.filter((t) => t.name === 'find_user_id_by_email').map((t) => String(t.args['email']).toLowerCase()));
  const email = emailsIn(all).find((e) => !triedEmails.has(e.toLowerCase()));
  if (email) return { kind: 'call', name: 'find_user_id_by_email', args: { email } };
  const triedNames = new Set(
    lookups
      .filter((t) => t.name === 'find_user_id_by_name_zip')
      .map((t) => JSON.stringify([t.args['first_name'], t.args['last_name'], t.args['zip']])),
  );
  // Every name the customer introduces is tried; a guess from capitalised words at most twice (the
  // decider counts failed look-ups in a row).
  const zips = zipsIn(all).reverse();
  const introduced = namesIn(all, { guess: false });
  // Guesses come from answers, not from the request ("Wireless Earbuds" is no name).
  const answers = view.customerTexts.slice(1).join('\n');
  const names = introduced.length > 0 ? introduced : triedNames.size < 2 ? namesIn(answers) : [];
  for (const zip of zips) {
    for (const name of names) {
      const args = { first_name: name.first, last_name: name.last, zip };
      if (!triedNames.has(JSON.stringify([args.first_name, args.last_name, zip])))
        return { kind: 'call', name: 'find_user_id_by_name_zip', args };
    }
  }
  if (lookups.some((t) => t.name.startsWith('find_user_id'))) {
    return say(
      "I couldn't find your account with those details. Could you give me the e-mail address on your account, or your first and last name and zip code?",
    );
  }
  if (zips.length > 0 && names.length === 0)
    return say('Thank you. Could you also give me your first and last name, or the e-mail address on your account?');
  if (names.length > 0 && zips.length === 0)
    return say('Thank you. Could you also give me your zip code, or the e-mail address on your account?');
  return say(
    'I can help with that. First I need to verify who you are: what is your e-mail address, or your first and last name and zip code?',
  );
}

/** Orders seen so far, by id (the latest view of each). */
const WRITES = ['cancel_pending_order', 'return_delivered_order_items'];

function ordersSeen(view: ConversationView): Map<string, Order> {
  const out = new Map<string, Order>();
  for (const t of view.tools) {
    if (t.ok && (t.name === 'get_order_details' || WRITES.includes(t.name)) && isRecord(t.json)) {
      const order = t.json as unknown as Order;
      if (typeof order.order_id === 'string') out.set(order.order_id, order);
    }
  }
  return out;
}

/** Whether the customer names an item of the order ("the laptop", "my headphones"). */
function namesItem(text: string, item: OrderItem): boolean {
  const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const name = norm(item.name);
  const last = name.split(/\s+/).at(-1) ?? '';
  return new RegExp(`\\b${escape(name)}s?\\b`).test(text) || (last.length >= 4 && new RegExp(`\\b${escape(last)}(?:e?s)?\\b`).test(text));
}

/** No order of the customer's can take the request; `text` says why. */
interface NoOrder {
  none: string;
}

/**
 * The order the customer means, among theirs in `wanted` status: by id, or by the products they
 * name, looking orders up one by one. A step when a look-up or a question comes first.
 */
function findOrder(view: ConversationView, orderIds: readonly string[], wanted: (o: Order) => boolean): Order | Step | NoOrder {
  const text = norm(view.customerTexts.join('\n'));
  const seen = ordersSeen(view);
  const named = [...text.matchAll(/#?\s?w\s?(\d{7})\b/g)].map((m) => `#W${m[1] ?? ''}`).filter((id) => orderIds.includes(id));
  const id = named.at(-1);
  if (id) return seen.get(id) ?? { kind: 'call', name: 'get_order_details', args: { order_id: id } };
  // An order this conversation already changed stays the one meant, whatever its status now.
  const acted = new Set(view.tools.filter((t) => t.ok && WRITES.includes(t.name)).map((t) => String(t.args['order_id'])));
  const fits = (o: Order) => wanted(o) || acted.has(o.order_id);
  const namedSeen = [...seen.values()].filter((o) => orderIds.includes(o.order_id) && fits(o) && o.items.some((i) => namesItem(text, i)));
  if (namedSeen.length === 1 && namedSeen[0]) return namedSeen[0];
  const unseen = orderIds.find((o) => !seen.has(o));
  if (unseen) return { kind: 'call', name: 'get_order_details', args: { order_id: unseen } };
  const orders = orderIds.map((o) => seen.get(o)).filter((o): o is Order => o !== undefined);
  const fitting = orders.filter(fits);
  const byItem = fitting.filter((o) => o.items.some((i) => namesItem(text, i)));
  const choice = byItem.length > 0 ? byItem : fitting;
  if (choice.length === 1 && choice[0]) return choice[0];
  if (fitting.length === 0) {
    return {
      none: `I looked through your orders and none of them can take that request: ${orders.map((o) => `${o.order_id} is ${o.status}`).join('; ') || 'you have no orders'}.`,
    };
  }
  return say(
    `Which order do you mean? ${choice.map((o) => `${o.order_id} (${itemsText(o.items)}; ${o.status})`).join('; ')}. Please tell me the order id.`,
  );
}

const REASONS: Array<[string, RegExp]> = [
  ['ordered by mistake', /\b(?:mistake|mistaken\w*|by accident|accidental\w*|didn't mean to|did not mean to|wrong (?:item|order|thing))\b/],
  [
    'no longer needed',
    /\b(?:no longer need\w*|(?:don't|do not|dont) need|not needed|(?:don't|do not|dont) want|changed my mind|no need|not necessary|better (?:deal|price))\b/,
  ],
];

function cancelOrder(view: ConversationView, order: Order): Step | null {
  const done = lastCall(view, 'cancel_pending_order', { order_id: order.order_id });
  if (done) {
    const text = `Done: order ${order.order_id} is cancelled (reason: ${String(done.args['reason'])}). The refund of ${total(order.items)} goes back to the original payment method: at once for a gift card, otherwise within 5 to 7 business days.`;
    return alreadySaid(view, text) ? null : say(text);
  }
  if (order.status !== 'pending') {
    const text = `Order ${order.order_id} is ${order.status}, and only pending orders can be cancelled, so I can't cancel it.`;
    return alreadySaid(view, text) ? null : say(text);
  }
  const all = norm(view.customerTexts.join('\n'));
  const question = `Why would you like to cancel order ${order.order_id}: is it no longer needed, or was it ordered by mistake?`;
  // A customer who cannot say confirms the reason the proposal names (the policy accepts only these two).
  const reason = REASONS.find(([, re]) => re.test(all))?.[0] ?? (alreadySaid(view, question) ? 'no longer needed' : undefined);
  if (!reason) return say(question);
  const proposal = `I will cancel order ${order.order_id} (${itemsText(order.items)}; total ${total(order.items)}) with the reason "${reason}". The refund goes to the original payment method: at once for a gift card, otherwise within 5 to 7 business days. Shall I go ahead? Please answer yes or no.`;
  const call = { name: 'cancel_pending_order', args: { order_id: order.order_id, reason } };
  return proposeWrite(view, proposal, call, `All right, I have not cancelled order ${order.order_id}.`);
}

function returnItems(view: ConversationView, order: Order, user: Record<string, unknown>): Step | null {
  const done = lastCall(view, 'return_delivered_order_items', { order_id: order.order_id });
  if (done) {
    const text = `Done: the return of ${(done.args['item_ids'] as string[]).length} item(s) from order ${order.order_id} is requested. You will get an e-mail explaining how to send them back; the refund goes to ${String(done.args['payment_method_id'])}.`;
    return alreadySaid(view, text) ? null : say(text);
  }
  if (order.status !== 'delivered') {
    const text = `Order ${order.order_id} is ${order.status}, and only delivered orders can be returned, so I can't return it.`;
    return alreadySaid(view, text) ? null : say(text);
  }
  const text = norm(view.customerTexts.join('\n'));
  const named = order.items.filter((i) => namesItem(text, i));
  const items = named.length > 0 ? named : order.items.length === 1 ? order.items : [];
  if (items.length === 0) return say(`Which items of order ${order.order_id} would you like to return? It has: ${itemsText(order.items)}.`);
  const methods = isRecord(user['payment_methods']) ? Object.keys(user['payment_methods']) : [];
  const original = order.payment_history[0]?.payment_method_id ?? '';
  const giftCard = /\bgift ?card\b/.test(text) ? methods.find((m) => m.startsWith('gift_card')) : undefined;
  const method = giftCard ?? original;
  const proposal = `I will request a return of ${itemsText(items)} from order ${order.order_id}, refunding ${total(items)} to ${method}. You will get an e-mail explaining how to send the items back; items not listed stay with you. Shall I go ahead? Please answer yes or no.`;
  const args = { order_id: order.order_id, item_ids: items.map((i) => i.item_id), payment_method_id: method };
  const call = { name: 'return_delivered_order_items', args };
  return proposeWrite(view, proposal, call, `All right, I have not requested a return for order ${order.order_id}.`);
}

function status(view: ConversationView, order: Order): Step | null {
  const tracking = order.fulfillments.flatMap((f) => f.tracking_id);
  const text = `Order ${order.order_id} (${itemsText(order.items)}; total ${total(order.items)}) is ${order.status}${tracking.length ? `; tracking id ${tracking.join(', ')}` : ''}.`;
  return alreadySaid(view, text) ? null : say(text);
}

const CANNOT: Record<'exchange' | 'modify', string> = {
  exchange: "I'm sorry, I can't exchange items in this chat.",
  modify: "I'm sorry, I can't change an order's items, address or payment method, or your default address, in this chat.",
};

/** The retail agent's next step. */
export function retailStep(view: ConversationView, domain: Domain, canHandoff: boolean): Step {
  const userId = userIdOf(view);
  const intents = intentsIn(view.customerTexts);
  const inScope = (text: string) => intentsIn([text]).length > 0 || RETAIL_WORDS.test(text.replace(/\be-?mail address/gi, 'email'));
  const who = userId ? `User ${userId}` : 'An unauthenticated user';
  const first = beforeRequests(view, domain, { canHandoff, who, help: HELP, inScope });
  if (first) return first;
  if (!userId) return authenticate(view);
  const details = lastCall(view, 'get_user_details', { user_id: userId });
  if (!details || !isRecord(details.json)) return { kind: 'call', name: 'get_user_details', args: { user_id: userId } };
  const user = details.json;
  const orderIds = Array.isArray(user['orders']) ? user['orders'].map(String) : [];
  for (const intent of intents) {
    if (intent === 'exchange' || intent === 'modify') {
      const text = `${CANNOT[intent]} ${HELP}`;
      if (!alreadySaid(view, text)) return say(text);
      continue;
    }
    const wanted = (o: Order) => (intent === 'cancel' ? o.status === 'pending' : intent === 'return' ? o.status === 'delivered' : true);
    const order = findOrder(view, orderIds, wanted);
    if ('none' in order) {
      if (alreadySaid(view, order.none)) continue;
      return say(order.none);
    }
    if ('kind' in order) return order;
    const step =
      intent === 'cancel' ? cancelOrder(view, order) : intent === 'return' ? returnItems(view, order, user) : status(view, order);
    if (step) return step;
  }
  return closingStep(view, intents.length, HELP);
}
