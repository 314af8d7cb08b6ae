import { useEffect, useMemo, useState, useSyncExternalStore, type FormEvent } from 'react';
import { signIn, signOut, whoAmI, type StaffMe } from './api.js';
import { ApprovalsView } from './Approvals.js';
import { ConversationView } from './ConversationView.js';
import { Dashboard } from './Dashboard.js';
import { LabRunsView } from './LabRuns.js';
import { OffersPanel } from './Offers.js';
import { PresenceControl } from './Presence.js';
import { QueueView } from './QueueView.js';
import { ReviewsView } from './ReviewsView.js';
import { ConsoleStream } from './stream.js';

type Route =
  | { screen: 'queue' }
  | { screen: 'dashboard' }
  | { screen: 'lab' }
  | { screen: 'approvals' }
  | { screen: 'reviews' }
  | { screen: 'conversation'; id: string };

/** The screen the address names: `#/queue`, `#/dashboard`, `#/lab`, `#/approvals`, `#/reviews` or `#/c/<conversation id>`. */
function useRoute(): Route {
  const read = (): Route => {
    const match = /^#\/c\/(conv_[A-Za-z0-9_-]+)$/.exec(location.hash);
    if (match) return { screen: 'conversation', id: match[1]! };
    if (location.hash === '#/lab') return { screen: 'lab' };
    if (location.hash === '#/approvals') return { screen: 'approvals' };
    if (location.hash === '#/reviews') return { screen: 'reviews' };
    return location.hash === '#/dashboard' ? { screen: 'dashboard' } : { screen: 'queue' };
  };
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const on = () => setRoute(read());
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}

/** Redraws whenever the stream has news. */
export function useStream(stream: ConsoleStream): number {
  return useSyncExternalStore(stream.subscribe, stream.getRevision);
}

function SignIn({ onSignedIn, notice }: { onSignedIn: (me: StaffMe) => void; notice: string | null }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const result = await signIn(email, password);
    setBusy(false);
    if (result.ok) onSignedIn(result.staff);
    else setError(result.message);
  };
  return (
    <main className="signin">
      <h1>Baton console</h1>
      <form onSubmit={(e) => void submit(e)} aria-labelledby="signin-title">
        <h2 id="signin-title">Sign in</h2>
        {notice && <p className="notice">{notice}</p>}
        <label htmlFor="email">E-mail address</label>
        <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <label htmlFor="password">Password</label>
        <input
          id="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}

const CONNECTION_TEXT = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting… (nothing is lost)',
  signed_out: 'Signed out',
};

function Shell({ me, onSignOut }: { me: StaffMe; onSignOut: (notice: string | null) => void }) {
  const stream = useMemo(() => new ConsoleStream(), []);
  useStream(stream);
  const route = useRoute();
  useEffect(() => {
    stream.start();
    return () => stream.stop();
  }, [stream]);
  useEffect(() => {
    if (stream.connection === 'signed_out') onSignOut('Your session ended: sign in again.');
  }, [stream, stream.connection, onSignOut]);
  return (
    <div className="shell">
      <header className="bar">
        <a className="brand" href="#/queue">
          Baton
        </a>
        <nav aria-label="Main">
          <a href="#/queue" aria-current={route.screen === 'queue' ? 'page' : undefined}>
            Queue
          </a>
          <a href="#/dashboard" aria-current={route.screen === 'dashboard' ? 'page' : undefined}>
            Dashboard
          </a>
          <a href="#/lab" aria-current={route.screen === 'lab' ? 'page' : undefined}>
            Lab runs
          </a>
          {(me.role === 'supervisor' || me.role === 'admin') && (
            <a href="#/approvals" aria-current={route.screen === 'approvals' ? 'page' : undefined}>
              Approvals
            </a>
          )}
          {(me.role === 'supervisor' || me.role === 'admin') && (
            <a href="#/reviews" aria-current={route.screen === 'reviews' ? 'page' : undefined}>
              Reviews
            </a>
          )}
        </nav>
        <PresenceControl />
        <span className={`connection ${stream.connection}`} role="status" data-testid="connection">
          {CONNECTION_TEXT[stream.connection]}
        </span>
        <span className="me">
          {me.name || me.email} · {me.role}
        </span>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            void signOut().then(() => onSignOut(null));
          }}
        >
          Sign out
        </button>
      </header>
      <OffersPanel stream={stream} />
      {route.screen === 'queue' ? (
        <QueueView stream={stream} />
      ) : route.screen === 'dashboard' ? (
        <Dashboard />
      ) : route.screen === 'lab' ? (
        <LabRunsView me={me} />
      ) : route.screen === 'approvals' ? (
        <ApprovalsView stream={stream} me={me} />
      ) : route.screen === 'reviews' ? (
        <ReviewsView me={me} />
      ) : (
        <ConversationView key={route.id} id={route.id} stream={stream} me={me} />
      )}
    </div>
  );
}

export function App() {
  const [me, setMe] = useState<StaffMe | null | undefined>(undefined);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    void whoAmI().then(setMe);
  }, []);
  if (me === undefined) return <p className="loading">Loading…</p>;
  if (me === null)
    return (
      <SignIn
        notice={notice}
        onSignedIn={(staff) => {
          setNotice(null);
          setMe(staff);
        }}
      />
    );
  return (
    <Shell
      me={me}
      onSignOut={(text) => {
        setNotice(text);
        setMe(null);
      }}
    />
  );
}
