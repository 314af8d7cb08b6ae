import { useEffect, useRef, useState } from 'react';
import { call } from './api.js';

type Presence = 'available' | 'busy' | 'away' | 'offline';

const LABEL: Record<Presence, string> = {
  available: 'Available (takes offers)',
  busy: 'Busy (no new offers)',
  away: 'Away (no new offers)',
  offline: 'Offline',
};

/** Where this person is, as the router holds it: "available" takes offers; the others do not. */
export function PresenceControl() {
  const [presence, setPresence] = useState<Presence | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void call<{ presence: Presence }>('GET', '/v1/staff/me/presence').then((a) => {
      if (a.status === 200) setPresence(a.body.presence);
      else setError(a.body.error?.message ?? `presence unknown (${a.status})`);
    });
  }, []);
  // One change on the wire at a time, and then the latest choice: quick changes (arrow keys) end
  // where the person stopped, never in the order the answers happen to arrive.
  const wanted = useRef<Presence | null>(null);
  const sending = useRef(false);
  const choose = async (next: Presence) => {
    wanted.current = next;
    setPresence(next);
    setError(null);
    if (sending.current) return;
    sending.current = true;
    let sent: Presence | null = null;
    while (wanted.current !== sent) {
      sent = wanted.current!;
      const answer = await call<{ presence: Presence }>('PUT', '/v1/staff/me/presence', { presence: sent });
      if (answer.status !== 200) {
        setError(answer.body.error?.message ?? `not changed (${answer.status})`);
        const now = await call<{ presence: Presence }>('GET', '/v1/staff/me/presence');
        if (now.status === 200) setPresence(now.body.presence);
        break;
      }
      if (wanted.current === sent) setPresence(answer.body.presence);
    }
    sending.current = false;
  };
  return (
    <span className={`presence ${presence ?? 'unknown'}`}>
      <label htmlFor="presence">Presence</label>
      <select
        id="presence"
        value={presence ?? ''}
        disabled={presence === null}
        onChange={(e) => void choose(e.target.value as Presence)}
        aria-describedby={error ? 'presence-error' : undefined}
      >
        {presence === null && <option value="">…</option>}
        {(['available', 'busy', 'away', 'offline'] as const).map((p) => (
          <option key={p} value={p}>
            {LABEL[p]}
          </option>
        ))}
      </select>
      {error && (
        <span id="presence-error" role="alert" className="error">
          {error}
        </span>
      )}
    </span>
  );
}
