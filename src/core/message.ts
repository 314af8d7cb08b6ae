import { z } from 'zod';
import { SCHEMA_VERSION } from './conversation.js';
import { ConversationIdSchema, MessageIdSchema } from './ids.js';
import { SenderSchema } from './owner.js';

/** Longest message text accepted anywhere (characters). */
export const MAX_MESSAGE_CHARS = 20_000;

export const MessageSenderSchema = z.union([z.object({ type: z.literal('customer') }), SenderSchema]);
export type MessageSender = z.infer<typeof MessageSenderSchema>;

/** Structured requests a customer message may carry (see `MessageSchema.request`). */
export const MessageRequestSchema = z.enum(['person']);
export type MessageRequest = z.infer<typeof MessageRequestSchema>;

/** A message that reached the customer or came from them. Suppressed replies are not messages. */
export const MessageSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  id: MessageIdSchema,
  conversationId: ConversationIdSchema,
  direction: z.enum(['inbound', 'outbound']),
  sender: MessageSenderSchema,
  text: z.string().max(MAX_MESSAGE_CHARS),
  /** Set on inbound messages: a redelivery with the same key is stored once. */
  idempotencyKey: z.string().min(1).max(200).nullable(),
  at: z.string(),
  /**
   * A structured request the customer made with a control of their channel rather than in words:
   * `person` is the web chat's "Talk to a person" button (docs/decisions/0023-the-web-chat.md).
   * The decider reads it as a request for a person whatever the text says. Absent on every other message.
   */
  request: MessageRequestSchema.optional(),
});
export type Message = z.infer<typeof MessageSchema>;
