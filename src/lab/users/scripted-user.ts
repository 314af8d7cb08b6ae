/**
 * The scripted customer: deterministic and offline. It follows a `UserScript`, reads the agent
 * with a few general patterns (`readAgent`), decides what to say by the rules below, and writes
 * it in a communication style (`renderMessage`). The style changes only the wording; the
 * decisions, and every fact, are the same in all six styles.
 */
import type { CustomerTurn, CustomerView, StopToken, Style, UserSimulator } from '../user.js';
import type { ScriptBeat, ScriptBeatKind, ScriptFact, UserScript } from '../variant.js';
import { readAgent, type AgentReading } from './agent-reading.js';
import { factLabel } from './script-text.js';
import { mixSeed, neutralText, renderMessage, type CannedKind, type LineFact, type LineKind, type StyleLine } from './styles.js';

/** Options of {@link createScriptedUser}. */
export interface ScriptedUserOptions {
  style: Style;
  /** One per episode: the same seed, script and conversation give the same text. */
  seed: number;
}

/** What one customer turn was made of: for tests, docs and hand-off timing. */
export interface ScriptedTurnRecord {
  turn: number;
  /** The kinds of the lines said, in order (empty when the turn is a stop token). */
  lines: LineKind[];
  /** The beats said at this turn, with the turn each was scheduled for (earlier when pulled forward). */
  beats: { kind: ScriptBeatKind; scheduled: number }[];
  stop: StopToken | null;
  /** What the customer read in the agent's turn. */
  reading: AgentReading;
}

/** A scripted customer: the port, plus the record of what it decided at each turn. */
export interface ScriptedUser extends UserSimulator {
  readonly kind: 'scripted';
  /** One record per answered turn, in order. */
  readonly log: readonly ScriptedTurnRecord[];
}

/**
 * Creates a scripted customer for `script`, writing in `options.style`.
 *
 * At each turn it reads what the agent (and the system) said since the customer's last message,
 * and decides, in this order:
 *
 * 1. **Transfer announced, accepted.** The agent announces a transfer (a statement such as
 *    "I'm transferring you to …", "a specialist will take over"), or the view has just become
 *    `transferred`: if `onTransfer` is `accept`, the turn is `###TRANSFER###`.
 * 2. **Out of turns.** Past `maxTurns` customer turns (turn > `maxTurns`): `###STOP###`.
 * 3. **Opening.** At turn 1: the request, with the facts marked `volunteered`.
 * 4. **Transfer reaction.** A transfer offered as a question is accepted in words when
 *    `onTransfer` is `accept`; an offered or announced transfer is refused in words when it is
 *    `refuse`, and the conversation goes on.
 * 5. **Facts.** Every fact whose `askedBy` words occur in a sentence that asks for something
 *    (a question, "please provide …", "may I have …") is revealed — each time it is asked, and
 *    never before.
 * 6. **Restating.** Asked what it wants ("How can I help?") after turn 1: the request again.
 * 7. **Confirmation.** Asked to confirm a change ("Shall I go ahead?"): yes when `confirms`,
 *    else no — unless it just accepted a transfer, which answers the question.
 * 8. **Unknown.** Asked a question or for information no fact answers: "I don't have that". The
 *    second turn with such a question is `###OUT-OF-SCOPE###` instead.
 * 9. **Beats.** The beats scheduled for this turn (and any earlier one not yet said).
 * 10. **Nothing else to say.** If none of the above produced a line:
 *     - the agent closed ("anything else?") or reported work done, and a beat is still to come:
 *       that beat, said now (the record shows the turn it was scheduled for);
 *     - the agent closed, or the customer has already said thanks: `###STOP###`;
 *     - the agent reported work done: thanks (once);
 *     - the agent says it is working ("one moment"): that it will wait;
 *     - otherwise (the agent told it something and asked nothing): an acknowledgement.
 *
 * A replay script (`replay: true`, a production conversation) keeps rules 1 and 2 and then says
 * the turn's message as written (turn 1: the request; later turns: their beats), nothing else;
 * a turn with no message is `###STOP###`.
 *
 * Calling `next` again for a turn already answered returns the same answer.
 */
export function createScriptedUser(script: UserScript, options: ScriptedUserOptions): ScriptedUser {
  const { style, seed } = options;
  const log: ScriptedTurnRecord[] = [];
  const answered = new Map<number, CustomerTurn>();
  const said = new Set<ScriptBeat>();
  let unknownTurns = 0;
  let thanked = false;
  let transferSeen = false;

  const factsIn = (text: string): LineFact[] =>
    script.facts.filter((f) => f.value !== '' && text.includes(f.value)).map((f) => ({ label: factLabel(f.key), value: f.value }));
  const reveal = (facts: readonly ScriptFact[]): StyleLine => {
    const lineFacts = facts.map((f) => ({ label: factLabel(f.key), value: f.value }));
    return { kind: 'reveal', text: neutralText('reveal', lineFacts), facts: lineFacts };
  };
  const canned = (kind: CannedKind): StyleLine => ({ kind, text: neutralText(kind), facts: [] });
  const request = (): StyleLine => ({ kind: 'request', text: script.request, facts: factsIn(script.request) });
  const beatLine = (beat: ScriptBeat): StyleLine => ({ kind: 'beat', text: beat.text, facts: factsIn(beat.text) });
  const beatsInOrder = [...script.beats].sort((a, b) => a.turn - b.turn);

  const finish = (turn: number, record: Omit<ScriptedTurnRecord, 'turn'>, reply: CustomerTurn): CustomerTurn => {
    log.push({ turn, ...record });
    answered.set(turn, reply);
    return reply;
  };
  const stop = (turn: number, token: StopToken, reading: AgentReading) =>
    finish(turn, { lines: [], beats: [], stop: token, reading }, { text: token, stop: token });

  // A replay says each turn as it was written, in its order, and nothing of its own.
  const replayTurn = (turn: number, reading: AgentReading): CustomerTurn => {
    const lines = turn === 1 ? [request()] : beatsInOrder.filter((b) => b.turn === turn).map(beatLine);
    if (lines.length === 0) return stop(turn, '###STOP###', reading);
    const beats = turn === 1 ? [] : beatsInOrder.filter((b) => b.turn === turn).map((b) => ({ kind: b.kind, scheduled: b.turn }));
    const text = renderMessage(style, lines, { seed: mixSeed(seed, turn), opening: turn === 1 });
    return finish(turn, { lines: lines.map((l) => l.kind), beats, stop: null, reading }, { text, stop: null });
  };

  const decide = (view: CustomerView): CustomerTurn => {
    const turn = view.turn;
    const lastCustomer = view.messages.map((m) => m.from).lastIndexOf('customer');
    const incoming = view.messages
      .slice(lastCustomer + 1)
      .filter((m) => m.from !== 'customer')
      .map((m) => m.text)
      .join('\n');
    const reading = readAgent(incoming, script.facts);
    const newlyTransferred = view.transferred && !transferSeen;
    transferSeen = view.transferred;
    const transfer = newlyTransferred ? 'announce' : reading.transfer;

    if (transfer === 'announce' && script.onTransfer === 'accept') return stop(turn, '###TRANSFER###', reading);
    if (turn > script.maxTurns) return stop(turn, '###STOP###', reading);
    if (script.replay === true) return replayTurn(turn, reading);

    const lines: StyleLine[] = [];
    const beats: ScriptedTurnRecord['beats'] = [];
    if (turn === 1) {
      lines.push(request());
      const volunteered = script.facts.filter((f) => f.volunteered);
      if (volunteered.length > 0) lines.push(reveal(volunteered));
    }
    const acceptedOffer = transfer === 'offer' && script.onTransfer === 'accept';
    if (acceptedOffer) lines.push(canned('accept_transfer'));
    else if (transfer !== null) lines.push(canned('refuse_transfer'));
    if (reading.asked.length > 0) lines.push(reveal(script.facts.filter((f) => reading.asked.includes(f))));
    if (reading.help && turn > 1) lines.push(request());
    if (reading.confirm && !acceptedOffer) lines.push(canned(script.confirms ? 'confirm_yes' : 'confirm_no'));
    if (reading.unknown) {
      unknownTurns++;
      if (unknownTurns >= 2) return stop(turn, '###OUT-OF-SCOPE###', reading);
      lines.push(canned('unknown'));
    }
    for (const beat of beatsInOrder) {
      if (beat.turn <= turn && !said.has(beat)) {
        said.add(beat);
        lines.push(beatLine(beat));
        beats.push({ kind: beat.kind, scheduled: beat.turn });
      }
    }

    if (lines.length === 0) {
      const pending = beatsInOrder.find((beat) => !said.has(beat));
      if ((reading.done || reading.completed) && pending) {
        said.add(pending);
        lines.push(beatLine(pending));
        beats.push({ kind: pending.kind, scheduled: pending.turn });
      } else if (reading.done || thanked) {
        return stop(turn, '###STOP###', reading);
      } else if (reading.completed) {
        thanked = true;
        lines.push(canned('closing'));
      } else {
        lines.push(canned(reading.waiting ? 'wait' : 'ack'));
      }
    }

    const text = renderMessage(style, lines, { seed: mixSeed(seed, turn), opening: turn === 1 });
    return finish(turn, { lines: lines.map((l) => l.kind), beats, stop: null, reading }, { text, stop: null });
  };

  return {
    kind: 'scripted',
    style,
    log,
    next(view) {
      const earlier = answered.get(view.turn);
      return Promise.resolve(earlier ?? decide(view));
    },
  };
}
