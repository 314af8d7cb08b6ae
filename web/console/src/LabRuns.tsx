import { useEffect, useState } from 'react';
import { call, type StaffMe } from './api.js';

interface LabRun {
  path: string;
  domain: string | null;
  agent: string | null;
  split: string | null;
  startedAt: string | null;
  gitSha: string | null;
  episodes: number | null;
}
interface LabRuns {
  runsDir: string | null;
  runs: LabRun[];
  reports: Array<{ path: string; modifiedAt: string }>;
}

const when = (iso: string | null) => (iso === null ? '—' : new Date(iso).toLocaleString());

/** The lab's run folders and reports below the server's runs folder; a report opens in a tab of its own. */
export function LabRunsView({ me }: { me: StaffMe }) {
  const [runs, setRuns] = useState<LabRuns | null>(null);
  const [error, setError] = useState<string | null>(null);
  const allowed = me.role !== 'agent';
  useEffect(() => {
    if (!allowed) return;
    void call<LabRuns>('GET', '/v1/lab/runs').then((answer) => {
      if (answer.status === 200) setRuns(answer.body as LabRuns);
      else setError((answer.body as { error?: { message?: string } }).error?.message ?? `the server answered ${answer.status}`);
    });
  }, [allowed]);
  if (!allowed) {
    return (
      <main className="lab">
        <h1>Lab runs</h1>
        <p>The lab's runs are for supervisors and admins.</p>
      </main>
    );
  }
  return (
    <main className="lab" aria-labelledby="lab-title">
      <h1 id="lab-title">Lab runs</h1>
      {error && <p role="alert">{error}</p>}
      {runs === null && !error && <p>Loading…</p>}
      {runs !== null && (
        <>
          <p>{runs.runsDir === null ? 'This server was started without a runs folder.' : `From the folder ${runs.runsDir}.`}</p>
          <h2>Reports</h2>
          {runs.reports.length === 0 ? (
            <p className="empty">No reports yet: `npm start` or `baton report` writes one.</p>
          ) : (
            <ul className="reports" data-testid="lab-reports">
              {runs.reports.map((r) => (
                <li key={r.path}>
                  <a href={`/v1/lab/report?path=${encodeURIComponent(r.path)}`} target="_blank" rel="noopener noreferrer">
                    {r.path}
                  </a>{' '}
                  <span className="muted">(written {when(r.modifiedAt)})</span>
                </li>
              ))}
            </ul>
          )}
          <h2>Runs</h2>
          {runs.runs.length === 0 ? (
            <p className="empty">No runs yet.</p>
          ) : (
            <table data-testid="lab-runs">
              <caption className="visually-hidden">Run folders</caption>
              <thead>
                <tr>
                  <th scope="col">Folder</th>
                  <th scope="col">Domain</th>
                  <th scope="col">Agent</th>
                  <th scope="col">Split</th>
                  <th scope="col">Episodes</th>
                  <th scope="col">Started</th>
                  <th scope="col">Commit</th>
                </tr>
              </thead>
              <tbody>
                {runs.runs.map((r) => (
                  <tr key={r.path}>
                    <td>{r.path}</td>
                    <td>{r.domain ?? '—'}</td>
                    <td>{r.agent ?? '—'}</td>
                    <td>{r.split ?? '—'}</td>
                    <td>{r.episodes ?? '—'}</td>
                    <td>{when(r.startedAt)}</td>
                    <td>{r.gitSha?.slice(0, 7) ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </main>
  );
}
