import type { Conversation, StoredEvent } from '../../../src/core/index.js';
import type { ApprovalItem, Colleague, OfferItem, QueueItem, StreamMessage } from '../../../src/server/staff-stream-protocol.js';

/** A followed conversation as the console knows it: the log up to `cursor`, each entry once, in order. */
export interface ConversationLog {
  conversation: Conversation | null;
  events: StoredEvent[];
  cursor: number;
  error: string | null;
}

export type Connection = 'connecting' | 'live' | 'reconnecting' | 'signed_out';

type Hello = Extract<StreamMessage, { type: 'hello' }>;

const TRANSITIONS = new Set([
  'handoff.requested',
  'conversation.queued',
  'conversation.claimed',
  'conversation.handed_back',
  'conversation.transferred',
  'assist.started',
  'assist.ended',
  'conversation.closed',
]);

/**
 * The console's end of the staff stream. It keeps a cursor per followed conversation and, on
 * every (re)connect, follows each one again from its cursor: the server sends what came after,
 * so a disconnect hides nothing (chatwoot#14934). An entry at or before the cursor is dropped,
 * so none is shown twice. The queue is a state: each snapshot replaces the last.
 */
export class ConsoleStream {
  connection: Connection = 'connecting';
  hello: Hello | null = null;
  queue: QueueItem[] | null = null;
  /** The offers waiting for this person's answer (null until the first list arrives). */
  offers: OfferItem[] | null = null;
  /** Offers answered here and not yet gone from the pushed list (hidden meanwhile). */
  readonly answered = new Set<string>();
  /** Supervisors: the agents' actions waiting for approval (null until the first list arrives, or when not followed). */
  approvals: ApprovalItem[] | null = null;
  /** Approvals decided here and not yet gone from the pushed list (hidden meanwhile). */
  readonly decided = new Set<string>();
  /** When the last queue snapshot arrived (performance.now()), to count waiting time on from it. */
  queueAt = 0;
  readonly people = new Map<string, Colleague>();
  readonly logs = new Map<string, ConversationLog>();
  /** Times the connection has been (re)opened. */
  opens = 0;

  private socket: WebSocket | null = null;
  private wantQueue = false;
  private wantApprovals = false;
  private readonly followed = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private revision = 0;
  private retryMs = 250;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  readonly getRevision = (): number => this.revision;

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close(1000, 'signed out');
    this.socket = null;
  }

  followQueue(on: boolean): void {
    this.wantQueue = on;
    this.send({ type: 'queue', follow: on });
  }

  /** Supervisors: follow the actions waiting for approval (a list pushed whenever it changes). */
  followApprovals(on: boolean): void {
    this.wantApprovals = on;
    if (!on) this.approvals = null;
    this.send({ type: 'approvals', follow: on });
  }

  /** A waiting call this supervisor decided: hidden at once, before the next list says so. */
  markDecided(callId: string): void {
    this.decided.add(callId);
    this.changed();
  }

  follow(id: string): void {
    this.followed.add(id);
    if (!this.logs.has(id)) this.logs.set(id, { conversation: null, events: [], cursor: 0, error: null });
    this.send({ type: 'follow', conversation: id, after: String(this.logs.get(id)!.cursor) });
  }

  unfollow(id: string): void {
    this.followed.delete(id);
    this.send({ type: 'unfollow', conversation: id });
  }

  /** An action's answer: the conversation as it is now, if newer than what the log has shown. */
  noteConversation(conversation: Conversation): void {
    const log = this.logs.get(conversation.id);
    if (!log) return;
    if (!log.conversation || conversation.version > log.conversation.version) {
      log.conversation = conversation;
      this.changed();
    }
  }

  /** An offer this person accepted or declined: hidden at once, before the next list says so. */
  markAnswered(id: string): void {
    this.answered.add(id);
    this.changed();
  }

  private send(request: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(request));
  }

  private changed(): void {
    this.revision += 1;
    for (const listener of [...this.listeners]) listener();
  }

  private connect(): void {
    const url = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/v1/staff/stream`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.retryMs = 250;
      this.opens += 1;
      this.connection = 'live';
      // The offers made to this person follow them on every screen.
      this.send({ type: 'offers', follow: true });
      if (this.wantQueue) this.send({ type: 'queue', follow: true });
      if (this.wantApprovals) this.send({ type: 'approvals', follow: true });
      for (const id of this.followed) this.send({ type: 'follow', conversation: id, after: String(this.logs.get(id)?.cursor ?? 0) });
      this.changed();
    };
    socket.onmessage = (e: MessageEvent<string>) => {
      let message: StreamMessage;
      try {
        message = JSON.parse(e.data) as StreamMessage;
      } catch {
        return;
      }
      this.receive(message);
    };
    let opened = false;
    socket.addEventListener('open', () => (opened = true));
    socket.onclose = (e) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      if (e.code === 4401) return this.signedOut();
      this.connection = 'reconnecting';
      this.changed();
      // A refused upgrade is only "closed" to a page: ask whether the session still holds.
      if (!opened) {
        void fetch('/v1/staff/me', { credentials: 'same-origin' }).then(
          (res) => (res.status === 401 ? this.signedOut() : this.retry()),
          () => this.retry(),
        );
        return;
      }
      this.retry();
    };
  }

  private retry(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => this.connect(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, 5000);
  }

  private signedOut(): void {
    this.connection = 'signed_out';
    this.changed();
  }

  private receive(message: StreamMessage): void {
    switch (message.type) {
      case 'hello':
        this.hello = message;
        break;
      case 'queue':
        this.queue = message.conversations;
        this.queueAt = performance.now();
        break;
      case 'offers':
        this.offers = message.offers;
        for (const id of [...this.answered]) if (!message.offers.some((o) => o.id === id)) this.answered.delete(id);
        break;
      case 'approvals':
        if (!this.wantApprovals) return;
        this.approvals = message.approvals;
        for (const id of [...this.decided]) if (!message.approvals.some((a) => a.call.id === id)) this.decided.delete(id);
        break;
      case 'conversation': {
        const log = this.logs.get(message.conversation.id);
        if (log && (!log.conversation || message.conversation.version >= log.conversation.version)) log.conversation = message.conversation;
        if (log) log.error = null;
        break;
      }
      case 'events': {
        for (const person of message.people) this.people.set(person.id, person);
        const log = this.logs.get(message.conversation);
        if (!log) return;
        for (const event of message.events) {
          if (event.seq <= log.cursor) continue;
          log.events.push(event);
          log.cursor = event.seq;
          const data = event.data as { version?: number; state?: Conversation['state']; owner?: Conversation['owner'] };
          if (log.conversation && TRANSITIONS.has(event.type) && data.version !== undefined && data.version > log.conversation.version) {
            log.conversation = {
              ...log.conversation,
              version: data.version,
              state: data.state,
              owner: data.owner,
              updatedAt: event.at,
            } as Conversation;
          }
        }
        // A new array, so that views comparing by identity redraw.
        log.events = [...log.events];
        break;
      }
      case 'error': {
        const log = message.conversation ? this.logs.get(message.conversation) : undefined;
        if (log) log.error = message.message;
        break;
      }
    }
    this.changed();
  }
}
