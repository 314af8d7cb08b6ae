import { HAND_BACK_PREFIX, type MessageId, type StoredEvent, type TranscriptItem } from '../core/index.js';

/** Raw texts of customer messages that the log holds redacted, by message id (in memory only). */
export type RawTexts = ReadonlyMap<MessageId, string>;
const NO_RAW: RawTexts = new Map();

/** The transcript item one log entry contributes, if any. */
function itemOf(event: StoredEvent, raw: RawTexts = NO_RAW): TranscriptItem | null {
  if (event.type === 'message.received') {
    const { message } = event.data;
    const text = raw.get(message.id) ?? message.text;
    return message.request === undefined ? { role: 'customer', text } : { role: 'customer', text, request: message.request };
  }
  if (event.type === 'message.sent') {
    const { sender, text } = event.data.message;
    if (sender.type === 'agent') return { role: 'agent', text };
    if (sender.type === 'human') return { role: 'human', text };
  }
  // The person's hand-back notes go into the agent's context where they were written.
  if (event.type === 'conversation.handed_back') return { role: 'human', text: `${HAND_BACK_PREFIX}${event.data.notes ?? '(none)'}` };
  if (event.type === 'tool.called') {
    const { name, arguments: args, ok, output, refused } = event.data;
    return { role: 'tool', name, arguments: args, ok, output, ...(refused === undefined ? {} : { refused }) };
  }
  return null;
}

/**
 * The conversation as the harness reads it, rebuilt from the log: customer messages, delivered
 * agent and human messages, tool calls. Holding messages from the system and suppressed replies
 * are not part of it: the customer never saw the latter, and the former say nothing. A customer
 * message stored redacted reads as its raw text while `raw` still holds it (the turn answering it).
 */
export function transcriptFromLog(events: readonly StoredEvent[], raw: RawTexts = NO_RAW): TranscriptItem[] {
  return events.flatMap((event) => itemOf(event, raw) ?? []);
}

/**
 * The index, in `transcriptFromLog(events)`, of the first item since an agent last took the
 * conversation over (a hand-back, or a transfer from another agent): the decider looks no further
 * back, so a request a human already answered does not hand the conversation off again.
 */
export function agentWindowStart(events: readonly StoredEvent[]): number {
  let items = 0;
  let start = 0;
  for (const event of events) {
    const handedBack = event.type === 'conversation.handed_back';
    const transferred = event.type === 'handoff.requested' && event.data.route === 'agent';
    if (handedBack || transferred) start = items;
    if (itemOf(event)) items += 1;
  }
  return start;
}

/** What the conversation's agent turns have spent so far. */
export function spentFromLog(events: readonly StoredEvent[]): { modelCalls: number; tokens: number; wallMs: number } {
  const spent = { modelCalls: 0, tokens: 0, wallMs: 0 };
  for (const event of events) {
    if (event.type !== 'turn.completed') continue;
    spent.modelCalls += event.data.modelCalls;
    spent.tokens += event.data.tokens;
    spent.wallMs += event.data.wallMs;
  }
  return spent;
}
