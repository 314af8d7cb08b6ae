/**
 * How a reference agent reads the conversation it is given. The harness rebuilds the whole chat on
 * every call (system policy, customer turns, the agent's own turns and tool calls, tool results),
 * so an agent here keeps no state of its own: everything it knows it reads back from the messages.
 */
import {
  HAND_BACK_PREFIX,
  hasExplicitConfirmation,
  type ChatMessage,
  type Constraint,
  type ToolSpec,
  type TranscriptItem,
} from '../../core/index.js';
import { constraintsInPrompt } from '../../runtime/constraint-lines.js';
import { unwrapToolOutput } from '../../runtime/tool-output-block.js';

/** How the harness shows a person's hand-back to the agent (see `HAND_BACK_PREFIX`). */
const HAND_BACK = `(a human colleague wrote) ${HAND_BACK_PREFIX}`;

/** A tool call the agent made, with what came back. */
export interface ToolRecord {
  name: string;
  args: Record<string, unknown>;
  /** The result text, without the harness's `<tool_output>` delimiters. */
  output: string;
  /** False for `Error: …` results and calls the harness refused or held. */
  ok: boolean;
  /** The harness did not run it (a missing confirmation, a rule, a constraint, an approval): the tool never saw it. */
  refused: boolean;
  /** It failed because the tool was unavailable (timeout, no response, "try again later"), not because of what was asked. */
  outage: boolean;
  /** The output parsed as JSON when it is JSON (null otherwise). */
  json: unknown;
  /** Made after the customer's latest message (in the turn being played now). */
  thisTurn: boolean;
  /** Its position in `ConversationView.transcript`. */
  at: number;
}

/** Everything an agent reads from one request. */
export interface ConversationView {
  /** Every customer message, oldest first. */
  customerTexts: string[];
  /** Where each customer message is in `transcript`. */
  customerAt: number[];
  /** The customer's messages since the agent last spoke, joined (the turn being answered). */
  latest: string;
  /** Everything the agent said to the customer, oldest first. */
  agentTexts: string[];
  /** Where each of the agent's messages is in `transcript`. */
  agentAt: number[];
  lastAgentText: string | null;
  /** Every tool call with its result, oldest first. */
  tools: ToolRecord[];
  /** The conversation in the harness's transcript form (for the confirmation rule and the decider's lexicon). */
  transcript: TranscriptItem[];
  /** The tools offered in this request, by name. */
  offered: ReadonlyMap<string, ToolSpec>;
  /** What people who handed the conversation back ruled out (from the system prompt). */
  constraints: Constraint[];
}

// How the harness marks what did not run: failures, refusals, rule verdicts and approvals it waits on.
const NOT_DONE = /^(?:Error:|Not executed:|Refused by rule |Rule \S+ needs more information|Waiting for a human)/;
const NOT_RUN = /^(?:Not executed:|Refused by rule |Rule \S+ needs more information|Waiting for a human)/;
const OUTAGE =
  /\b(?:unavailable|did not respond|not responding|no response|timed? ?out|try again later|temporar\w*|service (?:is )?down|internal (?:server )?error|overloaded|connection (?:refused|reset))\b|\b50[234]\b/i;

/** Whether a tool result says the call did not take effect. */
export const isFailedOutput = (output: string): boolean => NOT_DONE.test(output.trim());

function parseJson(text: string): unknown {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return null;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return null;
  }
}

function parseArgs(raw: string): Record<string, unknown> {
  const value = parseJson(raw || '{}');
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Reads a request's messages and tools into a view. */
export function readConversation(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): ConversationView {
  const customerTexts: string[] = [];
  const customerAt: number[] = [];
  const agentTexts: string[] = [];
  const agentAt: number[] = [];
  const records: ToolRecord[] = [];
  const transcript: TranscriptItem[] = [];
  const pending = new Map<string, { name: string; args: Record<string, unknown> }>();
  let latestParts: string[] = [];
  let constraints: Constraint[] = [];
  for (const message of messages) {
    if (message.role === 'system') constraints = constraintsInPrompt(message.content);
    else if (message.role === 'user') {
      customerTexts.push(message.content);
      customerAt.push(transcript.length);
      latestParts.push(message.content);
      transcript.push({ role: 'customer', text: message.content });
      for (const r of records) r.thisTurn = false;
    } else if (message.role === 'assistant') {
      for (const call of message.toolCalls) pending.set(call.id, { name: call.name, args: parseArgs(call.arguments) });
      if (message.content?.startsWith(HAND_BACK)) {
        // A person dealt with everything asked before the hand-back: the requests start again after it.
        customerTexts.length = 0;
        customerAt.length = 0;
        latestParts = [];
        continue;
      }
      if (message.toolCalls.length === 0 && message.content !== null && message.content.trim() !== '') {
        agentTexts.push(message.content);
        agentAt.push(transcript.length);
        transcript.push({ role: 'agent', text: message.content });
        latestParts = [];
      }
    } else if (message.role === 'tool') {
      const call = pending.get(message.toolCallId);
      const output = unwrapToolOutput(message.content);
      const ok = !isFailedOutput(output);
      const record: ToolRecord = {
        name: call?.name ?? message.name,
        args: call?.args ?? {},
        output,
        ok,
        refused: NOT_RUN.test(output.trim()),
        outage: !ok && !NOT_RUN.test(output.trim()) && OUTAGE.test(output),
        json: parseJson(output),
        thisTurn: true,
        at: transcript.length,
      };
      records.push(record);
      transcript.push({ role: 'tool', name: record.name, arguments: record.args, ok, output });
    }
  }
  return {
    customerTexts,
    customerAt,
    latest: latestParts.join('\n'),
    agentTexts,
    agentAt,
    lastAgentText: agentTexts.at(-1) ?? null,
    tools: records,
    transcript,
    offered: new Map(tools.map((t) => [t.name, t])),
    constraints,
  };
}

/** The successful calls of one tool, oldest first. */
export const succeeded = (view: ConversationView, name: string): ToolRecord[] => view.tools.filter((t) => t.name === name && t.ok);

/** The latest successful call of a tool whose arguments include `args`. */
export function lastCall(view: ConversationView, name: string, args: Record<string, unknown> = {}): ToolRecord | undefined {
  return succeeded(view, name)
    .filter((t) => Object.entries(args).every(([k, v]) => t.args[k] === v))
    .at(-1);
}

/** The customer's messages after transcript position `at`. */
export const customerTextsAfter = (view: ConversationView, at: number): string[] =>
  view.customerTexts.filter((_, i) => (view.customerAt[i] ?? -1) > at);

/** The agent's messages after transcript position `at`. */
export const agentTextsAfter = (view: ConversationView, at: number): string[] =>
  view.agentTexts.filter((_, i) => (view.agentAt[i] ?? -1) > at);

/** Whether the agent already said this (as a message, or as the end of one). */
export const alreadySaid = (view: ConversationView, text: string): boolean => view.agentTexts.some((t) => t.endsWith(text));

/**
 * Whether the customer's latest turn says yes to `proposal`: the agent's last message must be
 * that proposal, and the turn must pass the harness's own test for an explicit confirmation.
 */
export function confirmed(view: ConversationView, proposal: string): boolean {
  return (view.lastAgentText?.endsWith(proposal) ?? false) && hasExplicitConfirmation(view.transcript);
}

/** Whether the agent's last message was `proposal` and the customer's reply turned it down. */
export function declined(view: ConversationView, proposal: string): boolean {
  return (view.lastAgentText?.endsWith(proposal) ?? false) && !hasExplicitConfirmation(view.transcript) && saysNo(view.latest);
}

/**
 * The agent's answer to a reply that is neither a clear yes nor a clear no ("yes, yes, I don't
 * have all day" is no confirmation the harness accepts): the proposal again, asking for a plain yes.
 */
export const askAgain = (proposal: string): string => `Sorry, I need a clear yes or no before I make this change. ${proposal}`;

const NO =
  /^\W*(?:no|nope|nah|don'?t|do not|never ?mind|not now|not yet|cancel that|stop|leave it|wait)\b|\b(?:changed my mind|no thanks|no thank you|don'?t do (?:it|that)|do not do (?:it|that))\b/i;
const YES = /\b(?:yes|yeah|yep|yup|sure|ok(?:ay)?|go ahead|proceed|please do|do it|confirm(?:ed)?|correct|absolutely)\b/i;
/** A reply that turns something down, with no yes in it. */
export const saysNo = (text: string): boolean => {
  const t = text.replace(/[\u2018\u2019]/g, "'");
  return NO.test(t) && !YES.test(t);
};

const CLOSING = /\b(?:thanks?|thank you|thx|ty|cheers|bye|goodbye|that'?s all|that is all|nothing else|all good|that'?s it|no more)\b/i;
const STILL = /\b(?:but|still|also|another|and (?:can|could)|what about|why)\b|\?/i;
/** A turn that only thanks or says goodbye. */
export const isClosing = (text: string): boolean => CLOSING.test(text) && !STILL.test(text);
