import type { StoredEvent } from '../../../src/core/index.js';
import type { Colleague } from '../../../src/server/staff-stream-protocol.js';
import { personName, transitionText } from './describe.js';

const time = (at: string) => new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/**
 * The conversation's log as staff read it: the messages, who took and passed it on, and the
 * agent's tool calls and silenced messages, in log order, each entry once.
 */
export function Transcript({ events, people, me }: { events: readonly StoredEvent[]; people: ReadonlyMap<string, Colleague>; me: string }) {
  return (
    <ol className="transcript" aria-label="Transcript" data-testid="transcript">
      {events.map((e) => {
        if (e.type === 'message.received' || e.type === 'message.sent') {
          const s = e.data.message.sender;
          const who =
            s.type === 'customer'
              ? 'Customer'
              : s.type === 'agent'
                ? 'Agent'
                : s.type === 'human'
                  ? personName(s.id, people, me)
                  : 'System';
          return (
            <li key={e.seq} className={`msg ${s.type}`} data-seq={e.seq}>
              <span className="who">
                {who} <time dateTime={e.at}>{time(e.at)}</time>
              </span>
              <p className="text">{e.data.message.text}</p>
            </li>
          );
        }
        if (e.type === 'message.suppressed')
          return (
            <li key={e.seq} className="log suppressed" data-seq={e.seq}>
              not delivered ({e.data.sender.type} could not speak now): {e.data.text}
            </li>
          );
        if (e.type === 'tool.called')
          return (
            <li key={e.seq} className="log tool" data-seq={e.seq}>
              tool {e.data.name} {e.data.ok ? 'ran' : e.data.refused ? `refused: ${e.data.refused}` : 'failed'}
            </li>
          );
        const text = transitionText(e, people, me);
        if (text)
          return (
            <li key={e.seq} className="log transition" data-seq={e.seq}>
              {text} <time dateTime={e.at}>{time(e.at)}</time>
              {e.type === 'conversation.handed_back' && e.data.notes ? <span className="notes"> — note: {e.data.notes}</span> : null}
            </li>
          );
        return null;
      })}
    </ol>
  );
}
