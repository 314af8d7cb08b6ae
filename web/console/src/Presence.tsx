import { useEffect, useState } from 'react';
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
  const choose = async (next: Presence) => {
    const before = presence;
    setPresence(next);
    setError(null);
    const answer = await call<{ presence: Presence }>('PUT', '/v1/staff/me/presence', { presence: next });
    if (answer.status === 200) setPresence(answer.body.presence);
    else {
      setPresence(before);
      setError(answer.body.error?.message ?? `not changed (${answer.status})`);
    }
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
