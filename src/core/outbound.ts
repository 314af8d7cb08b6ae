import { speakerOf, type Conversation } from './conversation.js';
import type { NewEvent } from './events.js';
import type { EventId } from './ids.js';
import type { Message } from './message.js';
import { senderKey, type Sender } from './owner.js';

/**
 * The log entry for an outbound message at the moment of sending: `message.sent` if its sender
 * may speak now, else `message.suppressed` (the text is kept in the log, never delivered).
 */
export function outboundEvent(
  conversation: Pick<Conversation, 'state' | 'owner'>,
  message: Message & { sender: Sender },
  eventId: EventId,
): NewEvent {
  const speaker = speakerOf(conversation);
  const base = { schemaVersion: 1, id: eventId, conversationId: message.conversationId, at: message.at } as const;
  if (speaker !== null && speaker === senderKey(message.sender)) {
    return { ...base, type: 'message.sent', data: { message } };
  }
  return {
    ...base,
    type: 'message.suppressed',
    data: { sender: message.sender, text: message.text, speaker, state: conversation.state },
  };
}

/** The log entry that stores a customer message. */
export function receivedEvent(message: Message, eventId: EventId): NewEvent {
  return {
    schemaVersion: 1,
    id: eventId,
    conversationId: message.conversationId,
    at: message.at,
    type: 'message.received',
    data: { message },
  };
}

/** Narrows a message to one with an outbound sender. */
export function hasOutboundSender(message: Message): message is Message & { sender: Sender } {
  return message.sender.type !== 'customer';
}
