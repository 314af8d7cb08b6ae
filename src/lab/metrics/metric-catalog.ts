/**
 * Every figure of a metrics object (`metrics.json`'s `metrics`), in one list: its path, the name a
 * report shows, its definition in a sentence or two (the short form of `docs/metrics.md`, which
 * has the long one; reports show these on hover, so this is the one place they are written), which
 * way is better, and how to read it. Styles and pass^k's k are read from the metrics themselves.
 */
import type { PairedDifference } from './bootstrap.js';
import type { Figure, RunMetrics } from './compute.js';
import { VIOLATION_RULES, PACKET_FACT_KINDS, type PacketFactKind, type ViolationRule } from '../../analysis/episode-analysis.js';

/** What a catalogue entry reads from one run: a rate with its interval, a number of turns, a paired difference or counts. */
export type MetricReading =
  | { type: 'rate'; figure: Figure }
  | { type: 'turns'; value: number | null; measured: number }
  | { type: 'difference'; difference: PairedDifference | null; label: string }
  | { type: 'counts'; text: string };

export interface MetricEntry {
  /** The figure's path under `metrics` (`handoff.recall`, `pass_k.2`, `by_style.terse`). */
  path: string;
  label: string;
  definition: string;
  /** Which way is better, when one is (null: descriptive). */
  better: 'higher' | 'lower' | null;
  /** Null when this run has no such figure (another run's style, say). */
  read(metrics: RunMetrics['metrics']): MetricReading | null;
}

const rate = (figure: Figure | undefined): MetricReading | null => (figure ? { type: 'rate', figure } : null);

const VIOLATION_TEXT: Record<ViolationRule, [string, string]> = {
  write_without_confirmation: [
    'write without confirmation',
    "Share of episodes with a write whose tool needs the customer's yes, made when the customer's latest message (after the agent's latest reply) was no plain yes.",
  ],
  write_before_authentication: [
    'write before authentication',
    "Share of episodes with a write before the domain's authentication succeeded (billing: verify_customer; retail: a user-id look-up; airline: get_user_details on the id the customer gave).",
  ],
  several_actions_in_one_turn: [
    'several actions in one turn',
    'Share of episodes with an agent message holding more than one tool call, or text with a tool call (the one sentence announcing a hand-off excepted).',
  ],
  action_after_transfer: ['action after transfer', 'Share of episodes with any tool call after the hand-off went through.'],
  write_outside_reference: [
    'write outside the reference',
    "Share of episodes (of tasks with gold actions) with a write that matches none of the task's gold actions by name and compared arguments. It also fires on valid alternative solutions.",
  ],
};

const FACT_TEXT: Record<PacketFactKind, string> = {
  customer_id: "the customer's id, once a call identified them",
  verification: 'whether the customer was verified, always required',
  intent: 'what the customer wants, once they wrote',
  id: 'each id involved in a successful call or named in the conversation',
  amount: 'the amount of each involved record that has one, beside its id',
  action: 'each write that succeeded',
};

/** The fixed entries, in the order a report shows them; per-k and per-style entries are added by `metricCatalog`. */
const FIXED: readonly MetricEntry[] = [
  {
    path: 'success',
    label: 'success',
    definition:
      "Share of scored episodes whose evaluator reward is within 1e-6 of 1.0 (tau2-bench's rule). Unscored episodes (a judge needed and none configured) are left out and counted apart.",
    better: 'higher',
    read: (m) => rate(m.success),
  },
  {
    path: 'handoff.precision',
    label: 'hand-off precision',
    definition: 'TP / (TP + FP): of the episodes handed off, the share that should have been. Null when there was no hand-off.',
    better: 'higher',
    read: (m) => rate(m.handoff.precision),
  },
  {
    path: 'handoff.recall',
    label: 'hand-off recall',
    definition: 'TP / (TP + FN): of the episodes that should be handed off, the share that were. Null when no episode should.',
    better: 'higher',
    read: (m) => rate(m.handoff.recall),
  },
  {
    path: 'handoff.f1',
    label: 'hand-off F1',
    definition: 'The harmonic mean of hand-off precision and recall; null when either is null.',
    better: 'higher',
    read: (m) => rate(m.handoff.f1),
  },
  {
    path: 'handoff.over_escalation',
    label: 'over-escalation',
    definition: 'FP / negatives: the share of episodes that should be finished without a person that were handed off anyway.',
    better: 'lower',
    read: (m) => rate(m.handoff.over_escalation),
  },
  {
    path: 'handoff.missed',
    label: 'missed hand-offs',
    definition: 'FN / positives: the share of episodes that should be handed off that were not.',
    better: 'lower',
    read: (m) => rate(m.handoff.missed),
  },
  {
    path: 'handoff.wrong_target',
    label: 'wrong target',
    definition: 'Among true positives whose task names an expected queue, the share handed to another queue.',
    better: 'lower',
    read: (m) => rate(m.handoff.wrong_target),
  },
  {
    path: 'handoff.counts',
    label: 'hand-off counts',
    definition:
      'Episodes by hand-off class against the label: TP handed off and should, FP handed off and should not, FN missed, TN kept correctly; positives and negatives are the labels.',
    better: null,
    read: (m) => ({
      type: 'counts',
      text: `TP ${m.handoff.tp} · FP ${m.handoff.fp} · FN ${m.handoff.fn} · TN ${m.handoff.tn} (pos ${m.handoff.positives} / neg ${m.handoff.negatives})`,
    }),
  },
  {
    path: 'handoff.timing.on_time',
    label: 'hand-off on time',
    definition:
      'Among true positives with a known due turn, the share handed off at that very customer turn; an early hand-off counts as on time only when its trigger (a failed tool) was already there.',
    better: 'higher',
    read: (m) => rate(m.handoff.timing.on_time),
  },
  {
    path: 'handoff.timing.median_lateness',
    label: 'median lateness',
    definition:
      'The median of (customer turn of the hand-off − due turn) over those timed true positives, in customer turns; negative is early.',
    better: null,
    read: (m) => ({ type: 'turns', value: m.handoff.timing.median_lateness, measured: m.handoff.timing.measured }),
  },
  {
    path: 'handoff.timing.counts',
    label: 'timing counts',
    definition:
      'Timed true positives (measured), how many came late, early, and early with the trigger present (excused); true positives of tasks with no due turn are not timed.',
    better: null,
    read: (m) => {
      const t = m.handoff.timing;
      return {
        type: 'counts',
        text: `measured ${t.measured} · late ${t.late} · early ${t.early} (excused ${t.early_excused}) · untimed ${t.without_due_turn}`,
      };
    },
  },
  {
    path: 'packet_quality',
    label: 'packet quality',
    definition:
      "Among hand-offs, the share of the task's required facts (customer id, verification, intent, the ids and amounts involved, actions taken) that the packet carries, traceable to a tool result that succeeded before the hand-off.",
    better: 'higher',
    read: (m) => rate(m.packet_quality),
  },
  ...PACKET_FACT_KINDS.map((kind): MetricEntry => ({
    path: `packet_quality.by_fact.${kind}`,
    label: `packet fact: ${kind.replace(/_/g, ' ')}`,
    definition: `Required and present in the packets: ${FACT_TEXT[kind]}.`,
    better: null,
    read: (m) => {
      const f = m.packet_quality.by_fact[kind];
      return f ? { type: 'counts', text: `${f.present} of ${f.required} present` } : null;
    },
  })),
  {
    path: 'violations.any',
    label: 'episodes with a violation',
    definition:
      "Share of episodes where at least one of the five policy rules fires. The agent's calls count, including those the harness refused to run.",
    better: 'lower',
    read: (m) => rate(m.violations.any),
  },
  ...VIOLATION_RULES.map((rule): MetricEntry => ({
    path: `violations.${rule}`,
    label: VIOLATION_TEXT[rule][0],
    definition: VIOLATION_TEXT[rule][1],
    better: 'lower',
    read: (m) => rate(m.violations[rule]),
  })),
  {
    path: 'citation_rate',
    label: 'policy citation rate',
    definition:
      "Cited events / (refusals + hand-offs): the share of the agent's refusals and hand-offs whose text names a reason from the policy (a keyword match over the policy's terms; measured, not rewarded).",
    better: 'higher',
    read: (m) => rate(m.citation_rate),
  },
  {
    path: 'worst_style',
    label: 'worst style',
    definition:
      'The customer style with the lowest success, and its paired difference to neutral on the tasks both ran (negative: worse). Chosen after looking, so the gap is optimistic.',
    better: null,
    read: (m) =>
      m.worst_style
        ? {
            type: 'difference',
            difference: m.worst_style.gap_to_neutral,
            label: `${m.worst_style.style} ${(100 * m.worst_style.value).toFixed(1)}%, vs neutral`,
          }
        : null,
  },
];

/** pass^k's definition, for one k or for `k` itself. */
export const passKDefinition = (k: string): string =>
  `tau2-bench's pass^${k}: per task and style with c successes in n scored trials, C(c, ${k}) / C(n, ${k}), the chance that ${k} trials drawn from them all succeed; the mean over task-and-style groups.`;

/** What a comparison's Δ column is. */
export const PAIRED_DIFFERENCE_DEFINITION =
  "Success minus the baseline's, in percentage points, on the tasks both systems ran, with a 95% paired bootstrap interval (shared tasks resampled, each with its episodes from both).";

/**
 * The entries for these runs' metrics: the fixed ones, with pass^k for every k and success per
 * style for every style any of them measured (after success, in order).
 */
export function metricCatalog(runs: readonly Pick<RunMetrics, 'metrics'>[]): MetricEntry[] {
  const ks = [...new Set(runs.flatMap((r) => Object.keys(r.metrics.pass_k)))].sort((a, b) => Number(a) - Number(b));
  const styles = [...new Set(runs.flatMap((r) => Object.keys(r.metrics.by_style)))];
  const passK = ks.map((k): MetricEntry => ({
    path: `pass_k.${k}`,
    label: `pass^${k}`,
    definition: passKDefinition(k),
    better: 'higher',
    read: (m) => rate(m.pass_k[k]),
  }));
  const byStyle = styles.map((style): MetricEntry => ({
    path: `by_style.${style}`,
    label: `success, ${style} customers`,
    definition: `Success within the episodes whose simulated customer spoke in the ${style} style, with its interval over tasks.`,
    better: 'higher',
    read: (m) => rate(m.by_style[style]),
  }));
  const [success, ...rest] = FIXED;
  return [success as MetricEntry, ...passK, ...byStyle, ...rest];
}

/** The entry at a path (e.g. `handoff.recall`), for a report that shows one figure with its definition. */
export function metricEntry(runs: readonly Pick<RunMetrics, 'metrics'>[], path: string): MetricEntry | undefined {
  return metricCatalog(runs).find((e) => e.path === path);
}
