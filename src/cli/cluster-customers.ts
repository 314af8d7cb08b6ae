/**
 * The scripted customers of `baton bench cluster`, over HTTP through the balancer: each opens a
 * conversation, asks a question and waits (long-poll, by cursor) for the agent's answer, then
 * either asks a second question or — one conversation in `handoffEvery` — presses "Talk to a
 * person" and waits for a person's reply; one who talked to no person then leaves (a person hands
 * the others back to the agent). A post that finds its gateway dead is sent to another with the
 * same idempotency key; a long-poll that loses its gateway goes on from its cursor on another. Every post answered 201 (or 200, a duplicate) is remembered, to be found in the log.
 */
import type { Balancer } from './cluster-http.js';

export interface CustomersOptions {
  balancer: Balancer;
  conversations: number;
  /** Conversations in flight at once. */
  concurrency: number;
  /** One conversation in this many asks for a person (0: none). */
  handoffEvery: number;
  /** How long a customer waits for an answer before counting it unanswered (ms). */
  answerTimeoutMs: number;
  /** Told when conversation `index` is open (consoles start following it). */
  onOpened?: (index: number, id: string) => void;
  /** Told when conversation `index`'s script is done. */
  onDone?: (index: number) => void;
  /** Past `conversations`, whether to go on starting more (the load lasts until something is over). */
  more?: () => boolean;
}

/** A post the gateway acknowledged: the idempotency key sent and the message id answered. */
export interface Acknowledged {
  key: string;
  messageId: string;
  status: number;
}

/** What one customer's script saw. */
export interface CustomerRecord {
  index: number;
  id: string | null;
  acknowledged: Acknowledged[];
  /** Posts the gateways answered with something other than 201/200 (the reason). */
  refused: string[];
  /** Answers waited for in vain (the wait ran past `answerTimeoutMs`). */
  unanswered: number;
  askedForPerson: boolean;
  /** From the "Talk to a person" post to a person's first message being readable, ms. */
  timeToHumanMs: number | null;
  /** Customer messages posted and answered (by an agent, the system or a person). */
  answered: number;
  /** From each answered question's post to its answer being readable, ms. */
  latenciesMs: number[];
  error: string | null;
}

interface FeedMessage {
  id: string;
  from: 'customer' | 'agent' | 'human' | 'system';
  text: string;
}

const POLL_MS = 5_000;

const emptyRecord = (index: number): CustomerRecord => ({
  index,
  id: null,
  acknowledged: [],
  refused: [],
  unanswered: 0,
  askedForPerson: false,
  timeToHumanMs: null,
  answered: 0,
  latenciesMs: [],
  error: null,
});

/** One customer's script; fills `record` as it goes (what was acknowledged stays known if a later step fails). */
async function oneCustomer(options: CustomersOptions, record: CustomerRecord): Promise<void> {
  const { balancer } = options;
  const { index } = record;
  const opened = await balancer.request<{ conversation: { id: string }; customerToken: string }>('/v1/conversations', {
    method: 'POST',
    body: {},
  });
  if (opened.status !== 201) throw new Error(`opening a conversation answered ${opened.status}`);
  const id = opened.body.conversation.id;
  record.id = id;
  const auth = { authorization: `Bearer ${opened.body.customerToken}` };
  options.onOpened?.(index, id);
  let cursor = '0';

  /** Posts once per key, to whichever gateway answers; true if stored. */
  const post = async (path: 'messages' | 'request-person', key: string, text?: string): Promise<boolean> => {
    const answer = await balancer.request<{ message: { id: string }; cursor: string }>(`/v1/conversations/${id}/${path}`, {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': key },
      body: text === undefined ? {} : { text },
    });
    if (answer.status !== 201 && answer.status !== 200) {
      record.refused.push(`${path} ${key}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
      return false;
    }
    record.acknowledged.push({ key, messageId: answer.body.message.id, status: answer.status });
    return true;
  };

  /** Long-polls after the cursor until a message matches; false if none did in time. */
  const waitFor = async (match: (m: FeedMessage) => boolean): Promise<FeedMessage[] | null> => {
    const deadline = Date.now() + options.answerTimeoutMs;
    const seen: FeedMessage[] = [];
    while (Date.now() < deadline) {
      const page = await balancer.request<{ messages: FeedMessage[]; cursor: string }>(
        `/v1/conversations/${id}/messages?after=${cursor}&waitMs=${POLL_MS}`,
        { headers: auth, waitMs: POLL_MS },
      );
      if (page.status !== 200) throw new Error(`reading the messages answered ${page.status}`);
      cursor = page.body.cursor;
      seen.push(...page.body.messages);
      if (page.body.messages.some(match)) return seen;
    }
    record.unanswered += 1;
    return null;
  };

  /** Asks, waits for the agent's (or the system's) answer; after a hand-off notice, for a person too. */
  const ask = async (key: string, text: string) => {
    const posted = performance.now();
    if (!(await post('messages', key, text))) return;
    const seen = await waitFor((m) => m.from === 'agent' || m.from === 'system' || m.from === 'human');
    if (!seen) return;
    record.answered += 1;
    record.latenciesMs.push(performance.now() - posted);
    // The agent handed off on its own: a person answers next.
    if (seen.some((m) => m.from === 'system') && !seen.some((m) => m.from === 'human')) await waitFor((m) => m.from === 'human');
    if (seen.some((m) => m.from === 'system' || m.from === 'human')) metPerson = true;
  };
  let metPerson = false;

  await ask('m1', `Which plans do you offer? (customer ${index})`);
  if (options.handoffEvery > 0 && index % options.handoffEvery === 0) {
    record.askedForPerson = true;
    const asked = performance.now();
    if (await post('request-person', 'p1')) {
      if (await waitFor((m) => m.from === 'human')) {
        record.timeToHumanMs = performance.now() - asked;
        record.answered += 1;
      }
    }
  } else {
    await ask('m2', `Which plans do you offer for a family of four? (customer ${index})`);
    // Done: the customer leaves (the chat closes). One who talked to a person stays, handed back to the agent.
    if (metPerson) return;
    const left = await balancer.request(`/v1/conversations/${id}/leave`, { method: 'POST', headers: auth, body: {} });
    // A retried leave (its first answer lost with a gateway) finds the conversation closed already.
    if (left.status !== 200 && left.status !== 409) record.refused.push(`leave: ${left.status}`);
  }
}

/** Runs every customer's script, `concurrency` at once; resolves with what each saw. */
export async function runCustomers(options: CustomersOptions): Promise<CustomerRecord[]> {
  const records: CustomerRecord[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(options.concurrency, options.conversations) }, async () => {
      while (next < options.conversations || options.more?.() === true) {
        const index = next++;
        const record = emptyRecord(index);
        await oneCustomer(options, record).catch((error: unknown) => (record.error = String(error)));
        records.push(record);
        options.onDone?.(index);
      }
    }),
  );
  return records.sort((a, b) => a.index - b.index);
}
