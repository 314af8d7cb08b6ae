import type { CustomerMessage } from '../../../src/runtime/service/customer-feed.js';
import './chat.css';
import { ChatClient, type Link, type Outgoing } from './chat-client.js';

/** Who wrote a message, in the customer's words. */
const AUTHOR: Record<CustomerMessage['from'], string> = {
  customer: 'You',
  agent: 'Assistant',
  human: 'Support team',
  system: 'Notice',
};

const LINK_TEXT: Record<Link, string> = {
  connecting: 'Connecting…',
  live: 'Connected',
  polling: 'Connected (slow mode)',
  offline: 'Offline: reconnecting…',
};

const el = <T extends Element>(selector: string): T => {
  const found = document.querySelector<T>(selector);
  if (!found) throw new Error(`the chat page has no ${selector}`);
  return found;
};

const log = el<HTMLDivElement>('.log');
const list = el<HTMLOListElement>('.log .messages');
const linkLine = el<HTMLParagraphElement>('.link');
const problemLine = el<HTMLParagraphElement>('.problem');
const form = el<HTMLFormElement>('.composer');
const input = el<HTMLTextAreaElement>('#chat-text');
const person = el<HTMLButtonElement>('.person');

// In the widget's frame the page is laid out to fill it.
if (location.pathname.replace(/\/$/, '').endsWith('/embed')) document.body.classList.add('embedded');

function item(from: CustomerMessage['from'], text: string, extra: { at?: string; note?: string; id?: string } = {}): HTMLLIElement {
  const li = document.createElement('li');
  li.className = `message from-${from}`;
  li.dataset['from'] = from;
  if (extra.id) li.dataset['id'] = extra.id;
  const who = document.createElement('span');
  who.className = 'author';
  who.textContent = AUTHOR[from];
  const body = document.createElement('p');
  body.className = 'text';
  body.textContent = text;
  li.append(who, body);
  if (extra.at || extra.note) {
    const meta = document.createElement('span');
    meta.className = 'meta';
    meta.textContent = extra.note ?? new Date(extra.at!).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    li.append(meta);
  }
  return li;
}

let shown: HTMLLIElement[] = [];
let pending: HTMLLIElement[] = [];

function render(messages: readonly CustomerMessage[], outbox: readonly Outgoing[]): void {
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
  shown = messages.map((m) => item(m.from, m.text, { at: m.at, id: m.id }));
  pending = outbox.map((o) => {
    const li = item('customer', o.kind === 'person' ? 'You asked to talk to a person.' : o.text, {
      note: o.status === 'waiting' ? 'Not sent yet: retrying…' : o.status === 'sending' ? 'Sending…' : 'Sent',
    });
    li.classList.add('pending');
    li.dataset['status'] = o.status;
    return li;
  });
  list.replaceChildren(...shown, ...pending);
  if (atEnd) log.scrollTop = log.scrollHeight;
}

let lastMessages: readonly CustomerMessage[] = [];
let lastOutbox: readonly Outgoing[] = [];
const client = new ChatClient(location.origin, {
  messages(messages) {
    lastMessages = messages;
    render(lastMessages, lastOutbox);
  },
  outbox(outbox) {
    lastOutbox = outbox.map((o) => ({ ...o }));
    render(lastMessages, lastOutbox);
  },
  link(link) {
    linkLine.textContent = LINK_TEXT[link];
    linkLine.dataset['link'] = link;
  },
  problem(text) {
    problemLine.hidden = text === null;
    problemLine.textContent = text ?? '';
  },
});

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text) return;
  client.send(text);
  input.value = '';
  input.focus();
});
// Enter sends; Shift+Enter starts a new line.
input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    form.requestSubmit();
  }
});
person.addEventListener('click', () => client.requestPerson());
window.addEventListener('pagehide', () => client.close());
client.start();
