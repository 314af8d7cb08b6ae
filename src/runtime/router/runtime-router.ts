/**
 * The router behind the service's `HandoffRouter` port: a hand-off becomes a routing request in
 * the router's tables (src/store/routing-store.ts), offered at once to the best eligible person
 * who has room, as a reservation with a timeout; the customer is told only what the router can
 * back (`decidePromise`: a held reservation, or an estimate backed by people on shift inside the
 * queue's hours; otherwise the queue's callback, ticket or limited scope). Every router fact is
 * also written to the conversation's log (`routing.noted`), where the metrics read it.
 */
import {
  decidePromise,
  DEFAULT_WAIT_ESTIMATOR,
  estimateWait,
  hasSkills,
  routingPriority,
  type DeclineReason,
  type Presence,
  type RoutingPromise,
  type RoutingTarget,
  type WaitEstimate,
} from '../../core/router/index.js';
import type { Clock, Conversation, ConversationId, QueueId, RoutingNote, StaffId } from '../../core/index.js';
import type { CommandOutcome, Gateway } from '../gateway.js';
import type { HandoffRouter, RoutingDecision, RoutingRequest, WaitInfo } from '../service/handoff-router.js';
import type { RoutingFact, RoutingStore } from '../../store/routing-store.js';
import type { Directory } from '../../store/directory.js';
import { isOpenAt, nextOpenAt } from './availability-calendar.js';
import type { QueuePlan, RoutingSettings } from './routing-settings.js';

/** Options of {@link createRuntimeRouter}. */
export interface RuntimeRouterOptions {
  store: RoutingStore;
  gateway: Gateway;
  directory: Directory;
  clock: Clock;
  settings: RoutingSettings;
  plans: ReadonlyMap<string, QueuePlan>;
  /** Skills of which one is enough to work a queue (a domain's queues list them so). */
  anySkills?: ReadonlyMap<string, readonly string[]>;
  /**
   * The staff commands the router carries out for people (the service's, on the current
   * version): an accepted offer claims, an accepted warm offer transfers from the asker, a failed
   * warm offer transfers cold to its queue.
   */
  act: {
    claim(conversationId: ConversationId, staff: StaffId): Promise<CommandOutcome>;
    transfer(
      conversationId: ConversationId,
      staff: StaffId,
      to: { type: 'queue'; id: QueueId } | { type: 'human'; id: StaffId },
    ): Promise<CommandOutcome>;
  };
  /** Seconds a warm transfer waits for an answer before it goes cold (default 60). */
  warmTimeoutSeconds?: number;
}

/** How long after an accept the sweep takes its claim for unfinished (the accepting process died in between). */
export const ACCEPT_CLAIM_GRACE_MS = 15_000;

const minutes = (ms: number) => Math.max(1, Math.round(ms / 60_000));
const aboutMinutes = (ms: number) => (minutes(ms) === 1 ? 'about a minute' : `about ${minutes(ms)} minutes`);

/** The words for a promise: only what it says, nothing it does not. */
export function noticeFor(promise: RoutingPromise, timeZone: string): string {
  const when = (atMs: number) =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    }).format(atMs);
  switch (promise.type) {
    case 'join':
      return promise.basis === 'reservation'
        ? "I'm passing you to a colleague, who is joining now. They will see our whole conversation, so you won't need to repeat anything."
        : `I'm passing you to a colleague. The wait is ${aboutMinutes(promise.estimate.pointMs)}, usually within ${minutes(promise.estimate.boundMs)} minutes. They will see our whole conversation, so you won't need to repeat anything.`;
    case 'callback':
      return `Nobody who can help with this is working right now. A colleague will pick this up when the team is next in, ${when(promise.atMs)}, and reply here; you don't need to wait in the chat.`;
    case 'ticket':
      return `Nobody who can help with this is working right now, so I've passed it to the team as a ticket: a colleague will reply here within ${Math.round(promise.responseWithinMs / 3_600_000)} hours.`;
    case 'limited_scope':
      return "Nobody who can help with this is available right now, so I can't say when a colleague will reply. I've passed your conversation to the team, and they will see everything we've said; meanwhile I can answer simple questions, but I can't make changes.";
    case 'safety_escalation':
      return 'I am getting you help now. If you are in danger, please call your local emergency number (112 or 911) straight away. Our on-call team has been alerted to your message.';
  }
}

const promiseKind = (p: RoutingPromise): Extract<RoutingNote, { kind: 'promised' }>['promise'] =>
  p.type === 'join' ? (p.basis === 'reservation' ? 'join_now' : 'join_estimate') : p.type;

/** A router fact as the conversation's log records it. */
function noteOf(fact: RoutingFact): RoutingNote {
  switch (fact.kind) {
    case 'queued':
      return { kind: 'queued', request: fact.request, queue: fact.queue as QueueId, priority: fact.priority };
    case 'offered':
      return {
        kind: 'offered',
        request: fact.request,
        reservation: fact.reservation,
        staff: fact.staff,
        expiresAt: new Date(fact.expiresAt).toISOString(),
      };
    case 'accepted':
      return { kind: 'accepted', request: fact.request, reservation: fact.reservation, staff: fact.staff };
    case 'declined':
      return { kind: 'declined', request: fact.request, reservation: fact.reservation, staff: fact.staff, why: fact.why };
    case 'timed_out':
      return { kind: 'timed_out', request: fact.request, reservation: fact.reservation, staff: fact.staff };
    case 'moved':
      return { kind: 'moved', request: fact.request, to: fact.to as QueueId | 'callback' };
    case 'left':
      return { kind: 'left', request: fact.request, to: fact.to };
    case 'age_alert':
      return { kind: 'age_alert', request: fact.request, queue: fact.queue as QueueId, waitedMs: fact.waitedMs };
    case 'warm_failed':
      return { kind: 'warm_failed', request: fact.request, from: fact.from, queue: fact.queue as QueueId };
  }
}

/**
 * The wait `baton serve` tells a customer with `ahead` requests before it in `queue`: the
 * estimate the queue simulator measures (`estimateWait`, docs/router.md), on the queue's history in
 * the router's tables, backed by the eligible people at work now (presence `available` or `busy`:
 * the router has no shift calendars of its people); null when nobody eligible is at work.
 */
export async function servedEstimate(
  store: RoutingStore,
  input: {
    queue: string;
    /** Skills the queue needs, all of them, and the skills the hand-off's reason adds. */
    queueSkills: readonly string[];
    skills: readonly string[];
    ahead: number;
    /** Skills of which one is enough to work the queue (none: no such condition). */
    anyOf: readonly string[];
    /** The weight of the request's item (a chat's). */
    weight: number;
  },
): Promise<WaitEstimate | null> {
  const need = [...new Set([...input.queueSkills, ...input.skills])];
  const servers = (await store.staff())
    .filter(
      (s) =>
        (s.presence === 'available' || s.presence === 'busy') && hasSkills({ id: s.staff, skills: s.skills, capacity: s.capacity }, need),
    )
    .filter((s) => input.anyOf.length === 0 || input.anyOf.some((k) => s.skills.includes(k)))
    .reduce((sum, s) => sum + Math.floor(s.capacity / input.weight), 0);
  const history = await store.waitHistory(input.queue, DEFAULT_WAIT_ESTIMATOR);
  return estimateWait(history, { ahead: input.ahead, servers }, DEFAULT_WAIT_ESTIMATOR);
}

/** The router with its durable state; implements the service's port and the staff's offer actions. */
export function createRuntimeRouter(options: RuntimeRouterOptions) {
  const { store, gateway, clock, settings, plans } = options;
  const planOf = (queue: string): QueuePlan => {
    const plan = plans.get(queue);
    if (plan === undefined) throw new Error(`the router has no queue ${queue}`);
    return plan;
  };

  /** Writes router facts to their conversations' logs, in order; a failed warm transfer is then passed on cold. */
  const listeners = new Set<(facts: readonly RoutingFact[]) => void>();
  async function note(facts: readonly RoutingFact[]): Promise<void> {
    if (facts.length > 0) for (const listener of listeners) listener(facts);
    for (const fact of facts) {
      await gateway.record(fact.conversationId, [{ type: 'routing.noted', data: noteOf(fact) }]);
    }
    for (const fact of facts) {
      if (fact.kind === 'warm_failed')
        await options.act.transfer(fact.conversationId, fact.from, { type: 'queue', id: fact.queue as QueueId });
    }
  }

  /** Skills a request needs: the queue's own and those its reason adds. */
  const skillsFor = (reason: string) => [...(settings.reasonSkills[reason] ?? [])];

  /** The served estimate for `queue` (see {@link servedEstimate}). */
  const estimateFor = (queue: string, skills: readonly string[], ahead: number, anyOf: readonly string[]) =>
    servedEstimate(store, { queueSkills: planOf(queue).queue.skills, queue, skills, ahead, anyOf, weight: settings.weights.chat });

  const anySkills = options.anySkills ?? new Map<string, readonly string[]>();

  const router = {
    async route(request: RoutingRequest): Promise<RoutingDecision> {
      const now = clock.now();
      const plan = plans.get(request.queue) ?? null;
      if (plan === null) throw new Error(`a hand-off asked for ${request.queue}, which the router does not know`);
      const safety = request.reason === 'safety';
      const skills = skillsFor(request.reason);
      const targets: RoutingTarget[] = [{ type: 'queue', queue: plan.queue.id, timeoutSeconds: plan.waitTimeoutSeconds }];
      if (plan.fallback !== null)
        targets.push({ type: 'queue', queue: plan.fallback, timeoutSeconds: planOf(plan.fallback).waitTimeoutSeconds });
      targets.push({ type: 'callback' });
      const priority = routingPriority({ tier: 'standard', valueAtStake: 0, channel: 'chat', safety });
      const submitted = await store.submit(
        request.conversation.id,
        { skills, channel: 'chat', priority, safety, targets },
        now,
        request.exclude ?? [],
      );
      await note(submitted.facts);
      const reserved = submitted.facts.some((f) => f.kind === 'offered' && f.request === submitted.request);
      const standing = reserved ? null : await store.standing(request.conversation.id);
      const estimate = reserved ? null : await estimateFor(plan.queue.id, skills, standing?.ahead ?? 0, anySkills.get(plan.queue.id) ?? []);
      const promise = decidePromise({
        safety,
        queueOpen: plan.hours === null || isOpenAt(plan.hours, now),
        reservationHeld: reserved,
        estimate,
        whenNoCapacity: plan.queue.whenNoCapacity,
        nextCallbackAtMs: plan.hours === null ? null : nextOpenAt(plan.hours, now),
      });
      // The wait is scored against this estimate when it ends (the queue's history, for the next estimates and the metrics).
      if (promise.type === 'join' && promise.basis === 'estimate')
        await store.noteEstimate(submitted.request, plan.queue.id, promise.estimate, now);
      const by =
        promise.type === 'callback'
          ? new Date(promise.atMs).toISOString()
          : promise.type === 'ticket'
            ? new Date(now + promise.responseWithinMs).toISOString()
            : null;
      await gateway.record(request.conversation.id, [
        {
          type: 'routing.noted',
          data: {
            kind: 'promised',
            request: submitted.request,
            promise: promiseKind(promise),
            estimate:
              promise.type === 'join' && promise.basis === 'estimate'
                ? { pointMs: promise.estimate.pointMs, boundMs: promise.estimate.boundMs, promiseMs: promise.estimate.promiseMs }
                : null,
            by,
          },
        },
      ]);
      return { queue: plan.queue.id as QueueId, notice: noticeFor(promise, plan.hours?.timeZone ?? 'UTC') };
    },

    async waitInfo(conversation: Conversation): Promise<WaitInfo> {
      const standing = await store.standing(conversation.id);
      if (standing === null || standing.request.queue === null) return { estimateMs: null, position: null, hours: null };
      if (standing.request.status !== 'waiting') return { estimateMs: 0, position: 0, hours: null };
      const estimate = await estimateFor(
        standing.request.queue,
        standing.request.skills,
        standing.ahead,
        anySkills.get(standing.request.queue) ?? [],
      );
      return { estimateMs: estimate?.pointMs ?? null, position: standing.ahead + 1, hours: null };
    },

    /**
     * A person's ownership of the conversation changed (claimed from the queue, handed back,
     * closed, transferred): the router's capacity follows what the gateway decided.
     */
    async conversationChanged(conversation: Conversation): Promise<void> {
      const now = clock.now();
      if (conversation.owner.type === 'human') await note(await store.assignDirect(conversation.id, conversation.owner.id, now));
      else if (conversation.state === 'QUEUED' && conversation.owner.type === 'queue') {
        const live = await store.liveRequest(conversation.id);
        if (live?.status === 'assigned') {
          // Passed on to a queue by a person: their part is done, and it waits in the new queue —
          // for someone else: it is never offered straight back to the person who passed it on.
          await note(await store.complete(conversation.id, now));
          const placed = await router.route({
            conversation,
            queue: conversation.owner.id,
            reason: 'agent_decision',
            ...(live.staff ? { exclude: [live.staff] } : {}),
          });
          await gateway.send(conversation.id, { type: 'system' }, placed.notice);
        }
      } else await note(await store.complete(conversation.id, now));
    },

    /** A person says where they are; skills from their account, capacity from the settings. */
    async setPresence(staff: StaffId, presence: Presence) {
      const account = await options.directory.staffById(staff);
      if (account === null) throw new Error(`there is no staff member ${staff}`);
      const facts = await store.setPresence({ staff, skills: account.skills, capacity: settings.staffCapacity, presence }, clock.now());
      await note(facts);
      return (await store.staff()).find((s) => s.staff === staff)!;
    },

    offers: (staff: StaffId) => store.offersFor(staff),

    async onShift(staff: StaffId): Promise<boolean> {
      const state = (await store.staff()).find((s) => s.staff === staff);
      return state !== undefined && (state.presence === 'available' || state.presence === 'busy');
    },

    /** What the router holds for a person (presence, capacity, units used), if it has seen them. */
    staffState: async (staff: StaffId) => (await store.staff()).find((s) => s.staff === staff) ?? null,

    /**
     * The person takes the offer: a claim from the queue, or for a warm offer a transfer from the
     * person who asked, both through the gateway's compare-and-set. If the conversation moved on
     * meanwhile (closed, taken by someone else), that is refused and the person's slot is freed.
     */
    async accept(reservation: string, staff: StaffId) {
      const accepted = await store.accept(reservation, staff, clock.now());
      await note(accepted.facts);
      if (!accepted.ok) return accepted;
      const { conversationId, warmFrom } = accepted;
      const done =
        warmFrom === null
          ? await options.act.claim(conversationId, staff)
          : await options.act.transfer(conversationId, warmFrom, { type: 'human', id: staff });
      if (!done.ok) {
        await note(await store.complete(conversationId, clock.now()));
        return { ok: false as const, why: 'gone' as const, outcome: done };
      }
      return { ok: true as const, conversation: done.conversation };
    },

    /**
     * A warm transfer from the person who owns the conversation to a named person or a queue; the
     * conversation stays theirs until someone accepts. The system says nothing to the customer
     * (it speaks only while a conversation waits); the person who joins introduces themselves.
     */
    async warmTransfer(conversation: Conversation, from: StaffId, to: { type: 'queue'; id: QueueId } | { type: 'human'; id: StaffId }) {
      const live = await store.liveRequest(conversation.id);
      const fallbackQueue = to.type === 'queue' ? to.id : ((live?.queue as QueueId | null) ?? ([...plans.keys()][0] as QueueId));
      const offered = await store.offerWarm(
        conversation.id,
        {
          from,
          to: to.type === 'queue' ? { queue: to.id } : { staff: to.id },
          fallbackQueue,
          timeoutSeconds: options.warmTimeoutSeconds ?? 60,
        },
        clock.now(),
      );
      if (offered.ok) await note(offered.facts);
      return offered;
    },

    async decline(reservation: string, staff: StaffId, why: DeclineReason) {
      const declined = await store.decline(reservation, staff, why, clock.now());
      await note(declined.facts);
      return declined;
    },

    /** Calls `listener` with the facts of every routing transition (the timers schedule from them); returns how to stop. */
    onFacts(listener: (facts: readonly RoutingFact[]) => void): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },

    /** The earliest time the sweep has something to fire (a deadline or a queue-age threshold), if any. */
    nextDeadline: () => store.nextDeadline(),

    /** Fires the reservation and target timeouts that are due; each fires once, whichever process runs it. */
    async sweep(): Promise<RoutingFact[]> {
      const facts = await store.sweep(clock.now());
      await note(facts);
      // An accept whose process died before its claim: the person has the offer, not the
      // conversation, and nobody would offer it again. The claim is finished for them (a claim
      // that lost to anything meanwhile is refused by the gateway and changes nothing).
      for (const { conversationId, staff } of await store.acceptedUnclaimed(clock.now() - ACCEPT_CLAIM_GRACE_MS))
        await options.act.claim(conversationId, staff);
      for (const fact of facts) {
        if (fact.kind === 'moved' && fact.to === 'callback') {
          await gateway.send(
            fact.conversationId,
            { type: 'system' },
            "Nobody could take your conversation in time, so it is now a callback: the next colleague who can help will pick it up and reply here. You don't need to stay in the chat.",
          );
        }
      }
      return facts;
    },
  } satisfies HandoffRouter & Record<string, unknown>;
  return router;
}

export type RuntimeRouter = ReturnType<typeof createRuntimeRouter>;
