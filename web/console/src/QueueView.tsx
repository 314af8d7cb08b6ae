import { useEffect, useState } from 'react';
import { useStream } from './App.js';
import { duration, intentText, words } from './describe.js';
import type { ConsoleStream } from './stream.js';

/** A clock that ticks every `ms`, so that waiting times count up on screen. */
export function useNow(ms: number): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(performance.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/** The waiting conversations of the queues this person may work, oldest first, live. */
export function QueueView({ stream }: { stream: ConsoleStream }) {
  useStream(stream);
  const now = useNow(1000);
  useEffect(() => {
    stream.followQueue(true);
    return () => stream.followQueue(false);
  }, [stream]);
  const items = stream.queue;
  return (
    <main className="queue" aria-labelledby="queue-title">
      <h1 id="queue-title">Waiting for a person</h1>
      {items === null ? (
        <p>Loading the queue…</p>
      ) : items.length === 0 ? (
        <p className="empty">Nobody is waiting in your queues.</p>
      ) : (
        <table>
          <caption className="visually-hidden">Conversations waiting, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Customer wants</th>
              <th scope="col">Why a person</th>
              <th scope="col">Queue</th>
              <th scope="col">Waited</th>
              <th scope="col">
                <span className="visually-hidden">Open</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id} data-conversation={item.id}>
                <td className="intent">{intentText(item.intent ?? item.packet?.['intent'])}</td>
                <td>{words(item.reason)}</td>
                <td>{words(item.queue)}</td>
                <td className="waited">
                  {duration(item.waitedMs + Math.max(0, now - stream.queueAt))}
                  {item.promisedWaitMs !== null && <span className="promised"> (promised {duration(item.promisedWaitMs)})</span>}
                  {item.priority !== 'normal' && <span className="priority"> · {words(item.priority)} priority</span>}
                </td>
                <td>
                  <a
                    className="button"
                    href={`#/c/${item.id}`}
                    aria-label={`Open the conversation: ${intentText(item.intent ?? item.packet?.['intent'])}`}
                  >
                    Open
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
