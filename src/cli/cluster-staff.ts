/**
 * The simulated staff of `baton bench cluster`: each signs in, says they are available, follows
 * the offers made to them on the staff stream (reconnecting to another gateway when theirs dies),
 * accepts each, replies to the customer, and hands the conversation back to the agent. Every
 * step goes through the balancer; a step whose answer was lost with its gateway is checked
 * against the conversation before it is tried again, so a person never replies twice.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import { ACCEPT_CLAIM_GRACE_MS } from '../runtime/router/runtime-router.js';
import type { Balancer } from './cluster-http.js';
import { resilientStream } from './cluster-stream.js';

export interface StaffAccount {
  email: string;
  password: string;
}

export interface StaffFigures {
  accepted: number;
  replied: number;
  handedBack: number;
  /** Offers that were gone when accepted (taken by the router elsewhere, or timed out): not errors. */
  offersGone: number;
  errors: string[];
}

interface StaffConversation {
  conversation: { version: number; state: string; owner: { type: string; id?: string } };
  events: Array<{ type: string; data: { message?: { text: string } } }>;
}

export async function startStaff(options: { balancer: Balancer; accounts: readonly StaffAccount[] }) {
  const { balancer } = options;
  const figures: StaffFigures = { accepted: 0, replied: 0, handedBack: 0, offersGone: 0, errors: [] };
  const working = new Set<Promise<void>>();

  const people = await Promise.all(
    options.accounts.map(async (account, i) => {
      const login = await balancer.request<{ token: string; staff: { id: string } }>('/v1/staff/login', {
        method: 'POST',
        body: account,
      });
      if (login.status !== 200) throw new Error(`${account.email} could not sign in: ${login.status} ${JSON.stringify(login.body)}`);
      const { token } = login.body;
      const me = login.body.staff.id;
      const auth = { authorization: `Bearer ${token}` };
      const presence = await balancer.request('/v1/staff/me/presence', { method: 'PUT', headers: auth, body: { presence: 'available' } });
      if (presence.status !== 200) throw new Error(`${account.email} could not say they are available: ${presence.status}`);
      const handled = new Set<string>();
      const inHand = new Set<string>();

      const read = async (id: string) => {
        const answer = await balancer.request<StaffConversation>(`/v1/conversations/${id}?limit=500`, { headers: auth });
        if (answer.status !== 200) throw new Error(`reading ${id} answered ${answer.status}`);
        return answer.body;
      };
      const mine = (c: StaffConversation) => c.conversation.owner.type === 'human' && c.conversation.owner.id === me;
      /** Whether the conversation is, or within the sweep's grace (and a little more), becomes this person's. */
      const becomesMine = async (id: string) => {
        const until = Date.now() + ACCEPT_CLAIM_GRACE_MS + 10_000;
        for (;;) {
          const current = await read(id);
          if (mine(current)) return true;
          // Someone else has it, or it is closed: not ours to wait for.
          if (!['QUEUED', 'HANDOFF_PENDING'].includes(current.conversation.state) || Date.now() > until) return false;
          await wait(500);
        }
      };

      /** Accept, reply, hand back. */
      const work = async (offer: string, id: string) => {
        const accepted = await balancer.request(`/v1/offers/${offer}/accept`, { method: 'POST', headers: auth, body: {} });
        // A lost answer, or a 409 after our own accept went through on a gateway that died before
        // its claim: the person keeps the conversation open in their console for a while, and the
        // router's sweep finishes such a claim after its grace period.
        if (accepted.status !== 200 && !(await becomesMine(id))) {
          figures.offersGone += 1;
          return;
        }
        figures.accepted += 1;
        const text = `Hello, I am a person and I will sort this out (${randomBytes(6).toString('hex')}).`;
        for (;;) {
          const current = await read(id);
          if (current.events.some((e) => e.type === 'message.sent' && e.data.message?.text === text)) break;
          if (!mine(current)) return;
          const replied = await balancer.request(`/v1/conversations/${id}/replies`, {
            method: 'POST',
            headers: auth,
            body: { text, version: current.conversation.version },
            idempotent: false,
          });
          if (replied.status === 200 || replied.status === 201) break;
          // 409: a stale version; 403: no longer ours (read again to see); 0: the answer was lost.
          if (![0, 403, 409].includes(replied.status)) throw new Error(`replying answered ${replied.status}`);
        }
        figures.replied += 1;
        for (;;) {
          const current = await read(id);
          if (!mine(current)) {
            // Handed back (perhaps by a request whose answer was lost with its gateway), or taken from us.
            if (current.events.some((e) => e.type === 'conversation.handed_back')) figures.handedBack += 1;
            return;
          }
          const back = await balancer.request(`/v1/conversations/${id}/hand-back`, {
            method: 'POST',
            headers: auth,
            body: { version: current.conversation.version, notes: 'Answered by a person; back to the agent.' },
          });
          if (back.status === 200) {
            figures.handedBack += 1;
            return;
          }
          if (back.status !== 409 && back.status !== 403) throw new Error(`handing back answered ${back.status}`);
        }
      };

      const stream = resilientStream({
        bases: balancer.bases,
        first: i,
        token,
        onOpen: (send) => send({ type: 'offers', follow: true }),
        onMessage: (message) => {
          if (message.type !== 'offers') return;
          for (const offer of message['offers'] as Array<{ id: string; conversationId: string }>) {
            if (handled.has(offer.id)) continue;
            handled.add(offer.id);
            // One piece of work per conversation at a time: a second offer of one being worked is left to lapse.
            if (inHand.has(offer.conversationId)) continue;
            inHand.add(offer.conversationId);
            const job: Promise<void> = work(offer.id, offer.conversationId)
              .catch((error: unknown) => void figures.errors.push(String(error)))
              .finally(() => {
                working.delete(job);
                inHand.delete(offer.conversationId);
              });
            working.add(job);
          }
        },
      });
      return { stream };
    }),
  );

  return {
    figures,
    reconnects: () => people.reduce((n, p) => n + p.stream.reconnects, 0),
    /** Resolves once no staff member is in the middle of a conversation. */
    async settled(): Promise<void> {
      while (working.size > 0) await Promise.allSettled([...working]);
    },
    close(): void {
      for (const p of people) p.stream.close();
    },
  };
}

export type Staff = Awaited<ReturnType<typeof startStaff>>;
