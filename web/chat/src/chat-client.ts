import type { CustomerMessage } from '../../../src/runtime/service/customer-feed.js';
import type { CustomerStreamMessage } from '../../../src/server/customer-stream-protocol.js';

/** The subprotocol of the customer stream (src/server/customer-stream-protocol.ts); the token follows it. */
const STREAM_PROTOCOL = 'baton.customer.v1';
/** How long one long-poll waits on the server (ms); the server caps it at 30 s. */
const POLL_WAIT_MS = 25_000;
/** Failed socket sessions in a row before the chat reads by long-poll instead. */
const SOCKET_TRIES = 2;
/** How long the chat reads by long-poll before it tries a socket again (ms). */
const POLL_BEFORE_RETRY_MS = 60_000;
/** Longest pause between retries (ms). */
const MAX_BACKOFF_MS = 8_000;

/** What the chat keeps for the tab: the conversation, its customer token, and what is still to send. */
interface Session {
  conversationId: string;
  token: string;
  outbox: Outgoing[];
}

/** Something the customer sent that the server has not confirmed yet; its key is kept for every retry. */
export interface Outgoing {
  kind: 'message' | 'person';
  text: string;
  key: string;
  /** `sending` while a try is out; `waiting` between tries (the network failed); `sent` until the feed brings it. */
  status: 'sending' | 'waiting' | 'sent';
}

/** How the chat reads what comes: a live socket, long-poll, or not at all right now. */
export type Link = 'connecting' | 'live' | 'polling' | 'offline';

/** What the page shows, told by the client. */
export interface ChatView {
  messages(messages: readonly CustomerMessage[]): void;
  outbox(pending: readonly Outgoing[]): void;
  link(link: Link): void;
  /** Something the customer must know (a refusal, the conversation gone). */
  problem(text: string | null): void;
}

const STORAGE_KEY = 'baton.chat.session';

function loadSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<Session>;
    if (typeof value.conversationId !== 'string' || typeof value.token !== 'string') return null;
    const outbox = Array.isArray(value.outbox) ? value.outbox.map((o) => ({ ...o, status: 'waiting' as const })) : [];
    return { conversationId: value.conversationId, token: value.token, outbox };
  } catch {
    return null;
  }
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

const backoff = (failures: number) => Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.max(0, failures - 1));

/** An answer the server gave: its status and JSON body (null when it was not JSON). */
interface Answer {
  status: number;
  body: Record<string, unknown> | null;
}

/**
 * The web chat's connection to Baton: opens the conversation on the first thing the customer
 * sends (its token kept in sessionStorage, for this tab only), sends each message with an
 * idempotency key that every retry reuses (so a message sent while the network was cut arrives
 * once), and reads what the customer may see by cursor: over the customer stream (WebSocket)
 * while it works, by long-poll when it does not, resuming from the cursor after every break.
 */
export class ChatClient {
  private session: Session | null = loadSession();
  private readonly seen = new Map<string, CustomerMessage>();
  private cursor = '0';
  private readonly stop = new AbortController();
  private reading = false;
  private sending = false;
  /** Sent, by message id, until the feed brings the message (then it is shown where the log has it). */
  private readonly awaiting = new Map<string, Outgoing>();

  constructor(
    private readonly base: string,
    private readonly view: ChatView,
  ) {}

  /** Starts reading if this tab already has a conversation, and sends what a reload left unsent. */
  start(): void {
    if (!this.session) return;
    this.showOutbox();
    this.read();
    void this.flush();
  }

  /** Stops reading and sending (the page goes away). */
  close(): void {
    this.stop.abort();
  }

  /** Sends a message: queued at once, with its idempotency key, and retried until the server has it. */
  send(text: string): void {
    this.enqueue({ kind: 'message', text, key: crypto.randomUUID(), status: 'waiting' });
  }

  /** Asks for a person ("Talk to a person"): a request of its own, retried with its key like a message. */
  requestPerson(): void {
    this.enqueue({ kind: 'person', text: 'Talk to a person', key: crypto.randomUUID(), status: 'waiting' });
  }

  private enqueue(item: Outgoing): void {
    this.pending.push(item);
    this.save();
    this.showOutbox();
    void this.flush();
  }

  private showOutbox(): void {
    this.view.outbox([...this.awaiting.values(), ...this.pending]);
  }

  /** What waits to be sent: the session's outbox, or (before the conversation exists) this one. */
  private readonly early: Outgoing[] = [];
  private get pending(): Outgoing[] {
    return this.session?.outbox ?? this.early;
  }

  private save(): void {
    try {
      if (this.session) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(this.session));
    } catch {
      // Storage full or refused: the chat still works for as long as the page is open.
    }
  }

  private async call(method: 'GET' | 'POST', path: string, init: { key?: string; body?: unknown } = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (this.session) headers['authorization'] = `Bearer ${this.session.token}`;
    if (init.key) headers['idempotency-key'] = init.key;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers,
      signal: this.stop.signal,
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    return { status: res.status, body };
  }

  /** Sends the outbox in order, one at a time; a network failure pauses and retries the same item with the same key. */
  private async flush(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    let failures = 0;
    try {
      while (!this.stop.signal.aborted && this.pending.length > 0) {
        const item = this.pending[0]!;
        item.status = 'sending';
        this.showOutbox();
        const outcome = await this.deliver(item).catch(() => 'retry' as const);
        if (outcome === 'retry') {
          failures += 1;
          item.status = 'waiting';
          this.showOutbox();
          this.view.link('offline');
          await pause(backoff(failures), this.stop.signal);
          continue;
        }
        failures = 0;
        this.pending.shift();
        this.save();
        this.showOutbox();
      }
    } finally {
      this.sending = false;
    }
  }

  /** One try at an item: 'done' when the server has it (or refused it for good), 'retry' when it may not have. */
  private async deliver(item: Outgoing): Promise<'done' | 'retry'> {
    if (!this.session) {
      const opened = await this.call('POST', '/v1/conversations', { body: { channel: 'web_chat' } });
      if (opened.status >= 500 || opened.status === 429) return 'retry';
      if (opened.status !== 201 || !opened.body) return this.refused(opened);
      const conversation = opened.body['conversation'] as { id: string };
      this.session = { conversationId: conversation.id, token: String(opened.body['customerToken']), outbox: this.early.splice(0) };
      this.save();
      this.read();
    }
    const path = `/v1/conversations/${encodeURIComponent(this.session.conversationId)}`;
    const answer =
      item.kind === 'person'
        ? await this.call('POST', `${path}/request-person`, { key: item.key })
        : await this.call('POST', `${path}/messages`, { key: item.key, body: { text: item.text } });
    if (answer.status >= 500 || answer.status === 429) return 'retry';
    if (answer.status !== 200 && answer.status !== 201) return this.refused(answer);
    this.view.problem(null);
    // Shown as sent until the read brings it, in its place in the log.
    const id = (answer.body?.['message'] as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string' && !this.seen.has(id)) this.awaiting.set(id, { ...item, status: 'sent' });
    return 'done';
  }

  private refused(answer: Answer): 'done' {
    const error = answer.body?.['error'] as { message?: string } | undefined;
    if (answer.status === 404 || answer.status === 401) this.forget();
    this.view.problem(
      answer.status === 404 || answer.status === 401
        ? 'This conversation is no longer available. Write again to start a new one.'
        : `Your message was not accepted: ${error?.message ?? `error ${answer.status}`}`,
    );
    return 'done';
  }

  /** The conversation is gone (or its token): the next message starts a new one. */
  private forget(): void {
    try {
      sessionStorage.removeItem(STORAGE_KEY);
    } catch {
      // Nothing stored.
    }
    this.session = null;
  }

  private show(messages: readonly CustomerMessage[]): void {
    let added = false;
    for (const m of messages) {
      if (this.seen.has(m.id)) continue;
      this.seen.set(m.id, m);
      added = true;
    }
    if (!added) return;
    this.view.messages([...this.seen.values()]);
    if ([...this.awaiting.keys()].some((id) => this.seen.has(id))) {
      for (const id of this.awaiting.keys()) if (this.seen.has(id)) this.awaiting.delete(id);
      this.showOutbox();
    }
  }

  /** A page of the feed: show it and move the cursor past it. */
  private take(messages: readonly CustomerMessage[], cursor: string): void {
    this.show(messages);
    this.cursor = cursor;
  }

  /** Reads what the customer may see, for as long as the page is open: one reader, by cursor. */
  private read(): void {
    if (this.reading || !this.session) return;
    this.reading = true;
    void this.readLoop().finally(() => (this.reading = false));
  }

  private async readLoop(): Promise<void> {
    let failures = 0;
    let pollingSince: number | null = typeof WebSocket === 'undefined' ? Date.now() : null;
    while (!this.stop.signal.aborted && this.session) {
      if (pollingSince === null) {
        this.view.link('connecting');
        const worked = await this.socketSession();
        failures = worked ? 0 : failures + 1;
        if (failures >= SOCKET_TRIES) pollingSince = Date.now();
        else await pause(backoff(failures), this.stop.signal);
        continue;
      }
      const ok = await this.pollOnce();
      if (!ok) {
        failures += 1;
        this.view.link('offline');
        await pause(backoff(failures), this.stop.signal);
      }
      // Now and then the socket is tried again (the network that blocked it may have changed).
      if (Date.now() - pollingSince > POLL_BEFORE_RETRY_MS) {
        pollingSince = null;
        failures = SOCKET_TRIES - 1;
      }
    }
  }

  /** One long-poll: true when the server answered. */
  private async pollOnce(): Promise<boolean> {
    const session = this.session!;
    try {
      const answer = await this.call(
        'GET',
        `/v1/conversations/${encodeURIComponent(session.conversationId)}/messages?after=${this.cursor}&waitMs=${POLL_WAIT_MS}`,
      );
      if (answer.status === 404 || answer.status === 401) {
        this.refused(answer);
        return true;
      }
      if (answer.status !== 200 || !answer.body) return false;
      this.view.link('polling');
      this.take(answer.body['messages'] as CustomerMessage[], String(answer.body['cursor']));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * One socket session, from the cursor, until it closes: true when it worked (the server's
   * `ready` came), false when it never did (blocked, refused, or mangled on the way).
   */
  private socketSession(): Promise<boolean> {
    const session = this.session!;
    const url = new URL(`${this.base}/v1/conversations/${encodeURIComponent(session.conversationId)}/stream`, location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('after', this.cursor);
    return new Promise((resolve) => {
      let ready = false;
      let socket: WebSocket;
      try {
        socket = new WebSocket(url, [STREAM_PROTOCOL, session.token]);
      } catch {
        return resolve(false);
      }
      const stopped = () => socket.close(1000, 'the page is closing');
      this.stop.signal.addEventListener('abort', stopped, { once: true });
      socket.addEventListener('message', (event) => {
        let message: CustomerStreamMessage;
        try {
          message = JSON.parse(String(event.data)) as CustomerStreamMessage;
        } catch {
          return socket.close(4400, 'not JSON');
        }
        if (message.type === 'ready') {
          ready = true;
          this.view.link('live');
        } else if (message.type === 'messages') this.take(message.messages, message.cursor);
      });
      socket.addEventListener('close', () => {
        this.stop.signal.removeEventListener('abort', stopped);
        if (ready) this.view.link('offline');
        resolve(ready);
      });
    });
  }
}
