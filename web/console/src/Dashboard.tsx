import { useEffect, useState } from 'react';
import type { Rate, ReviewMetrics, RuntimeMetrics, WaitFigures } from '../../../src/core/index.js';
import { call } from './api.js';
import { duration, words } from './describe.js';
import { ReviewFiguresView } from './ReviewFiguresView.js';

type Metrics = RuntimeMetrics & { waits: WaitFigures; reviews: ReviewMetrics; scope: 'all' | 'own_queues'; queues: string[] };

const WINDOWS = [
  ['hour', 'Last hour', 3_600_000],
  ['day', 'Last 24 hours', 86_400_000],
  ['week', 'Last 7 days', 7 * 86_400_000],
] as const;
type WindowId = (typeof WINDOWS)[number][0];

interface Bar {
  label: string;
  /** The bar's length in the chart's unit; null: nothing to measure (no bar, "no data"). */
  value: number | null;
  /** What is written beside the bar. */
  text: string;
}

const percent = (r: Rate): Bar['text'] => (r.rate === null ? 'no data' : `${Math.round(r.rate * 100)}% (${r.count} of ${r.of})`);
/** A time to read on a chart: tenths of a second below ten seconds, so that a fast answer is not "0 s". */
const seconds = (ms: number | null) => (ms === null ? 'no data' : ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : duration(ms));

/** A bar chart in plain SVG: one row per bar, the value written beside it, the whole described for screen readers. */
function Bars({ id, title, bars, max }: { id: string; title: string; bars: Bar[]; max?: number }) {
  const top = max ?? Math.max(1, ...bars.map((b) => b.value ?? 0));
  const row = 28;
  const labelW = 195;
  const barW = 130;
  const height = Math.max(1, bars.length) * row + 4;
  const summary = bars.length === 0 ? 'no data' : bars.map((b) => `${b.label}: ${b.text}`).join('; ');
  return (
    <figure className="chart" data-testid={`chart-${id}`}>
      <figcaption id={`chart-${id}-title`}>{title}</figcaption>
      {bars.length === 0 ? (
        <p className="empty">No data in this window.</p>
      ) : (
        <svg
          viewBox={`0 0 ${labelW + barW + 185} ${height}`}
          width="100%"
          role="img"
          aria-labelledby={`chart-${id}-title`}
          aria-describedby={`chart-${id}-desc`}
        >
          <desc id={`chart-${id}-desc`}>{summary}</desc>
          {bars.map((b, i) => {
            const y = i * row + 2;
            const w = b.value === null ? 0 : Math.max(b.value > 0 ? 2 : 0, (b.value / top) * barW);
            return (
              <g key={b.label} data-bar={b.label} data-value={b.value ?? ''}>
                <text x={labelW - 6} y={y + 18} textAnchor="end" className="bar-label">
                  {b.label}
                </text>
                <rect x={labelW} y={y + 5} width={barW} height={16} className="bar-track" />
                <rect x={labelW} y={y + 5} width={w} height={16} className="bar" />
                <text x={labelW + barW + 6} y={y + 18} className="bar-text">
                  {b.text}
                </text>
              </g>
            );
          })}
        </svg>
      )}
    </figure>
  );
}

const rateBar = (label: string, r: Rate): Bar => ({ label, value: r.rate, text: percent(r) });

/** The runtime's hand-off metrics over a window, as charts: every queue for supervisors and admins, an agent's own queues for them. */
export function Dashboard() {
  const [windowId, setWindowId] = useState<WindowId>('day');
  const [metrics, setMetrics] = useState<Metrics | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    const span = WINDOWS.find((w) => w[0] === windowId)![2];
    const until = new Date();
    const since = new Date(until.getTime() - span);
    const query = new URLSearchParams({ since: since.toISOString(), until: until.toISOString() });
    void call<Metrics>('GET', `/v1/metrics?${query.toString()}`).then((a) => {
      if (!current) return;
      if (a.status === 200) {
        setMetrics(a.body);
        setError(null);
      } else setError(a.body.error?.message ?? `the metrics could not be read (${a.status})`);
    });
    return () => {
      current = false;
    };
  }, [windowId]);

  const m = metrics;
  return (
    <main className="dashboard" aria-labelledby="dashboard-title">
      <div className="dashboard-head">
        <h1 id="dashboard-title">Dashboard</h1>
        <label htmlFor="dashboard-window">Window</label>
        <select id="dashboard-window" value={windowId} onChange={(e) => setWindowId(e.target.value as WindowId)}>
          {WINDOWS.map(([id, label]) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {!m ? (
        <p>Loading the metrics…</p>
      ) : (
        <>
          {m.scope === 'own_queues' && (
            <p className="note" data-testid="dashboard-scope">
              Your queues only ({m.queues.map((q) => words(q.replace(/^queue_/, ''))).join(', ') || 'none'}): conversations that waited in
              them.
            </p>
          )}
          <p className="dashboard-summary" data-testid="dashboard-summary">
            {m.conversationsServed} conversations served by the agent, {m.handoffs} hand-offs, {m.suppressedMessages} suppressed replies,{' '}
            from {new Date(m.window.since).toLocaleString()} to {new Date(m.window.until).toLocaleString()}.
          </p>
          <div className="charts">
            <Bars
              id="handoff-rate"
              title="Hand-off rate by reason (conversations handed off ÷ served)"
              max={1}
              bars={Object.entries(m.handoffRateByReason).map(([reason, r]) => ({
                label: words(reason),
                value: r.rate,
                text: percent(r),
              }))}
            />
            <Bars
              id="time-to-human"
              title={`Time to a human (${m.timeToHumanMs.answered} answered, ${m.timeToHumanMs.unanswered} not yet)`}
              bars={[
                { label: 'p50', value: m.timeToHumanMs.p50, text: seconds(m.timeToHumanMs.p50) },
                { label: 'p95', value: m.timeToHumanMs.p95, text: seconds(m.timeToHumanMs.p95) },
              ]}
            />
            <Bars
              id="rates"
              title="Re-ask, bounce, resolved after a hand-off"
              max={1}
              bars={[rateBar('re-ask', m.reAsk), rateBar('bounce', m.bounce), rateBar('resolved after hand-off', m.resolutionAfterHandoff)]}
            />
            <Bars
              id="suppressed"
              title="Replies suppressed (lost the race to a new owner)"
              bars={[{ label: 'suppressed', value: m.suppressedMessages, text: String(m.suppressedMessages) }]}
            />
            <Bars
              id="wait-error"
              title={`Wait-estimate error (${m.waits.estimated} waits told an estimate)`}
              bars={[
                { label: 'p50', value: m.waits.absoluteErrorMs.p50, text: seconds(m.waits.absoluteErrorMs.p50) },
                { label: 'p90', value: m.waits.absoluteErrorMs.p90, text: seconds(m.waits.absoluteErrorMs.p90) },
              ]}
            />
            <Bars
              id="promises"
              title="Promises kept"
              max={1}
              bars={[rateBar('promise kept', m.waits.promiseKept), rateBar('within the stated bound', m.waits.boundCoverage)]}
            />
            <Bars
              id="queue-age"
              title="Queue age: the oldest wait now, by queue"
              bars={Object.entries(m.waits.oldestWaitingMs).map(([queue, ms]) => ({
                label: words(queue),
                value: ms,
                text: `${duration(ms)}${m.waits.ageAlerts[queue] ? `, ${m.waits.ageAlerts[queue]} age alerts` : ''}`,
              }))}
            />
          </div>
          <ReviewFiguresView reviews={m.reviews} />
        </>
      )}
    </main>
  );
}
