/**
 * The simulated customer's port. Two simulators stand behind it: the scripted user (deterministic,
 * offline, follows a `UserScript` and renders it in a communication style) and the LLM user (any
 * OpenAI-compatible endpoint, prompted with tau2-bench's user guidelines, the scenario, the
 * variant's instruction and the style card). Both end a conversation with tau2-bench's tokens.
 */

/** The six communication styles. A style changes how the customer writes, never the facts. */
export const STYLES = ['neutral', 'terse', 'verbose', 'impatient', 'non_native', 'low_tech_literacy'] as const;
export type Style = (typeof STYLES)[number];

/** tau2-bench's stop tokens: goal done, transferred, the scenario does not cover what was asked. */
export const STOP_TOKENS = ['###STOP###', '###TRANSFER###', '###OUT-OF-SCOPE###'] as const;
export type StopToken = (typeof STOP_TOKENS)[number];

/** The conversation as the customer sees it (never the agent's tool calls or results). */
export interface CustomerView {
  /** Every visible message so far, oldest first; the last is the agent's (or the system's). */
  messages: readonly { from: 'agent' | 'customer' | 'system'; text: string }[];
  /** The customer's turn about to be written (1 = the opening message). */
  turn: number;
  /** The conversation has been handed to a person (the system said so). */
  transferred: boolean;
}

/** The customer's next message. `stop` set: the message is the stop token, and the conversation ends. */
export interface CustomerTurn {
  text: string;
  stop: StopToken | null;
}

export interface UserSimulator {
  readonly kind: 'scripted' | 'llm';
  readonly style: Style;
  next(view: CustomerView): Promise<CustomerTurn>;
}
