import type { ReviewEstimate, ReviewFigureName, ReviewFigures, ReviewMetrics } from '../../../src/core/index.js';
import { words } from './describe.js';

/** The figures, in the order shown, with what each one is a share of. */
const FIGURES: Array<[ReviewFigureName, string, string]> = [
  ['precision', 'Precision', 'hand-offs that were needed'],
  ['recall', 'Recall', 'conversations needing a person that got one'],
  ['overEscalation', 'Over-escalation', 'conversations not needing a person that were handed off'],
  ['timing', 'On time', 'needed hand-offs that came on time'],
  ['packetEnough', 'Packet enough', 'hand-offs whose packet was enough'],
];

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** An estimate as a cell: the share, its 95% interval and the verdicts under it; "—" where the slice cannot define it. */
export function estimateText(e: ReviewEstimate | null): string {
  if (e === null) return '—';
  if (e.value === null) return `no data (n = ${e.n})`;
  return `${pct(e.value)}${e.ci ? ` (95% ${pct(e.ci[0])}–${pct(e.ci[1])})` : ''}, n = ${e.n}`;
}

function SliceTable({ id, caption, slices }: { id: string; caption: string; slices: Array<[string, ReviewFigures]> }) {
  const shown = FIGURES.filter(([name]) => slices.some(([, f]) => f[name] !== null));
  return (
    <table className="figures" data-testid={`reviews-${id}`}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{id === 'overall' ? 'Figure' : id === 'reason' ? 'Reason' : 'Queue'}</th>
          {id === 'overall' ? (
            <th scope="col">Estimate (95% interval), verdicts</th>
          ) : (
            shown.map(([name, label]) => (
              <th scope="col" key={name}>
                {label}
              </th>
            ))
          )}
        </tr>
      </thead>
      <tbody>
        {id === 'overall'
          ? FIGURES.map(([name, label, of]) => (
              <tr key={name} data-figure={name}>
                <th scope="row">
                  {label} <span className="hint">({of})</span>
                </th>
                <td>{estimateText(slices[0]![1][name])}</td>
              </tr>
            ))
          : slices.map(([key, f]) => (
              <tr key={key} data-slice={key}>
                <th scope="row">{words(key.replace(/^queue_/, ''))}</th>
                {shown.map(([name]) => (
                  <td key={name}>{estimateText(f[name])}</td>
                ))}
              </tr>
            ))}
      </tbody>
    </table>
  );
}

/**
 * Production hand-off quality from staff verdicts (docs/reviews.md): every figure with its 95%
 * stratified bootstrap interval and its sample size, overall, per reason and per queue, and how
 * the strata were weighted.
 */
export function ReviewFiguresView({ reviews }: { reviews: ReviewMetrics }) {
  const w = reviews.weighting;
  return (
    <section className="review-figures" aria-labelledby="review-figures-title" data-testid="review-figures">
      <h2 id="review-figures-title">Hand-off quality from staff verdicts</h2>
      <p className="note">
        {reviews.overall.reviewed} verdicts; the estimates cover {w.coveredPopulation} of {w.population} hand-offs and kept conversations in
        the window. {w.description}
      </p>
      <SliceTable id="overall" caption="Overall" slices={[['overall', reviews.overall]]} />
      {Object.keys(reviews.byReason).length > 0 && <SliceTable id="reason" caption="By reason" slices={Object.entries(reviews.byReason)} />}
      {Object.keys(reviews.byQueue).length > 0 && <SliceTable id="queue" caption="By queue" slices={Object.entries(reviews.byQueue)} />}
      <table className="figures" data-testid="reviews-strata">
        <caption>
          Strata and their weights ({reviews.interval.method}, {reviews.interval.resamples} resamples)
        </caption>
        <thead>
          <tr>
            <th scope="col">Stratum</th>
            <th scope="col">In the window</th>
            <th scope="col">Reviewed</th>
            <th scope="col">Each verdict stands for</th>
          </tr>
        </thead>
        <tbody>
          {w.strata.map((s) => (
            <tr key={s.stratum} data-stratum={s.stratum}>
              <th scope="row">
                {s.subject === 'kept' ? 'Kept by the agent' : `${words(s.reason ?? '')} → ${words((s.queue ?? '').replace(/^queue_/, ''))}`}
              </th>
              <td>{s.population}</td>
              <td>{s.reviewed}</td>
              <td>{s.weight === null ? 'not reviewed: left out' : `${Number(s.weight.toFixed(2))}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
