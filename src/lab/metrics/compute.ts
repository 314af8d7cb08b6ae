/**
 * A run's metrics object, from its episode records alone: success and pass^k, hand-off precision,
 * recall, F1, over-escalation, missed and wrong-target hand-offs with positive and negative
 * counts, hand-off timing, packet quality, the five policy-rule violations, the policy-citation
 * rate, and success per customer style with the worst style's gap to neutral. Every rate comes
 * with a 95% percentile-bootstrap interval over tasks (see `bootstrap.ts`). Pure and
 * deterministic: the same records and seed give byte-identical JSON. Definitions and choices:
 * `docs/metrics.md`.
 */
import type { Domain, GoldAction } from '../../domains/domain.js';
import type { EpisodeRecord } from '../records.js';
import {
  bootstrap,
  bootstrapRatio,
  compareIds,
  CONFIDENCE_LEVEL,
  DEFAULT_BOOTSTRAP_SEED,
  DEFAULT_RESAMPLES,
  pairedDifference,
  ratioOf,
  type BootstrapOptions,
  type Estimate,
  type PairedDifference,
  type Ratio,
} from './bootstrap.js';
import {
  analyseEpisode,
  taskUnitOf,
  PACKET_FACT_KINDS,
  VIOLATION_RULES,
  type EpisodeAnalysis,
  type PacketFactKind,
  type ViolationRule,
} from '../../analysis/episode-analysis.js';

export const METRICS_VERSION = 1;

/** What the metrics need besides the records. */
export interface MetricsContext {
  /** The records' domain: which tools write, the tasks' gold actions, the tools that need a yes. */
  domain: Domain;
  /** Seeds every interval (default `DEFAULT_BOOTSTRAP_SEED`). */
  seed?: number;
  /** Bootstrap resamples per interval (default 1,000). */
  resamples?: number;
}

/** An estimate with `n`: how many things its ratio is over (episodes, hand-offs, facts, …). */
export interface Figure extends Estimate {
  n: number;
}

/** A hand-off figure, with the positive and negative episode counts it must be read beside. */
export interface HandoffFigure extends Figure {
  positives: number;
  negatives: number;
}

export interface HandoffMetrics {
  positives: number;
  negatives: number;
  /** Episode counts: transferred and should (tp), transferred and should not (fp), …. */
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  /** TP / (TP + FP): of the hand-offs, the share that were due. */
  precision: HandoffFigure;
  /** TP / (TP + FN): of the due hand-offs, the share made. */
  recall: HandoffFigure;
  /** The harmonic mean of precision and recall; null when either is. */
  f1: HandoffFigure;
  /** FP / negatives. */
  over_escalation: HandoffFigure;
  /** FN / positives. */
  missed: HandoffFigure;
  /** Among TP with an expected target, the share sent elsewhere. */
  wrong_target: HandoffFigure;
  timing: HandoffTimingMetrics;
  /** The hand-off rate per task kind (a variant's twist, or `task`): recall for positive kinds, over-escalation for negative ones. */
  by_kind: Record<string, { positives: number; negatives: number; transferred: number; rate: Figure }>;
}

export interface HandoffTimingMetrics {
  /** TP with a known `due_turn` whose hand-off answered that very turn (or came early with the trigger present). */
  on_time: Figure;
  /** Median of `turn − due_turn` over those TP (negative: early); null when none. */
  median_lateness: number | null;
  /** TP with a known `due_turn` (the figures' base). */
  measured: number;
  late: number;
  /** Before `due_turn`; `early_excused` of them had the trigger present and count as on time. */
  early: number;
  early_excused: number;
  /** TP whose label gives no `due_turn` (plain tasks): not timed. */
  without_due_turn: number;
}

export interface RunMetrics {
  version: typeof METRICS_VERSION;
  domain: string;
  agent: string | null;
  interval: { method: 'percentile_bootstrap_over_tasks'; level: number; resamples: number; seed: number };
  counts: {
    episodes: number;
    /** Distinct tasks (a plain task or a hand-off variant): the bootstrap's unit. */
    tasks: number;
    positives: number;
    negatives: number;
    scored: number;
    unscored: number;
    handoffs: number;
    /** Trials per task and style, fewest and most. */
    trials: { min: number; max: number };
  };
  metrics: {
    /** Successes over scored episodes (unscored ones left out, their count in `unscored`). */
    success: Figure & { unscored: number };
    /** tau2-bench's pass^k, k = 1 … the fewest scored trials of any task and style; `n` counts those groups. */
    pass_k: Record<string, Figure>;
    handoff: HandoffMetrics;
    /** Of the facts the hand-offs' packets must carry, the share they carry. */
    packet_quality: Figure & { handoffs: number; by_fact: Record<PacketFactKind, { required: number; present: number }> };
    /** Shares of episodes with at least one violation (`any`) and with each rule's. */
    violations: { any: Figure } & Record<ViolationRule, Figure>;
    /** Cited refusals and hand-offs over all refusals and hand-offs. */
    citation_rate: Figure & { refusals: number; handoffs: number; cited: number };
    by_style: Record<string, Figure>;
    /** The style with the lowest success, and its paired difference to neutral on shared tasks (negative: worse). */
    worst_style: { style: string; value: number; gap_to_neutral: PairedDifference | null } | null;
  };
  /** The choices behind these figures, to show wherever they are reported. */
  notes: readonly string[];
}

/** Shown with every metrics object (docs/metrics.md has the full definitions). */
export const METRIC_NOTES: readonly string[] = [
  'Intervals: 95% percentile bootstrap over tasks (a plain task or a hand-off variant); all styles and trials of a task resampled together.',
  'Rates are pooled over episodes (or hand-offs, facts, events) of the resampled tasks; resamples where a rate is undefined are left out.',
  'Success counts scored episodes only; unscored ones (no judge) are counted apart.',
  'pass^k groups the trials of one task in one style.',
  'Hand-off figures count every episode, scored or not; undefined ratios are null, never 0.',
  'Violations count the calls the agent made, including those the harness refused to run.',
  'write_outside_reference also fires on valid alternative solutions.',
  'Citation is a keyword match over policy terms: measured, not rewarded.',
  'The worst style is chosen after looking; its gap to neutral is optimistic.',
];

const median = (values: readonly number[]): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** C(c, k) / C(n, k): the chance that k trials drawn without replacement from n, c of them successes, all succeed. */
export function passHatK(c: number, n: number, k: number): number {
  if (k < 1 || k > n || c < 0 || c > n) throw new Error(`pass^k needs 1 ≤ k ≤ n and 0 ≤ c ≤ n (c=${c}, n=${n}, k=${k})`);
  let p = 1;
  for (let i = 0; i < k; i += 1) p *= (c - i) / (n - i);
  return Math.max(0, p);
}

/** Groups items by a key, the groups in key order. */
function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return new Map([...groups.entries()].sort(([a], [b]) => compareIds(a, b)));
}

/** Per task: what `fn` makes of its episodes. */
const perTask = <T>(byTask: ReadonlyMap<string, readonly EpisodeAnalysis[]>, fn: (episodes: readonly EpisodeAnalysis[]) => T) =>
  new Map([...byTask].map(([task, episodes]) => [task, fn(episodes)] as const));

const countWhere = (episodes: readonly EpisodeAnalysis[], test: (e: EpisodeAnalysis) => boolean) => episodes.filter(test).length;

/** A pooled share with its interval and base. */
function figure(tasks: ReadonlyMap<string, Ratio>, options: BootstrapOptions): Figure {
  const total = [...tasks.values()].reduce((sum, r) => sum + r.den, 0);
  return { ...bootstrapRatio(tasks, options), n: total };
}

/** Per task: successes over scored episodes, for the tasks with any scored episode. */
export function successByTask(episodes: readonly EpisodeAnalysis[]): Map<string, Ratio> {
  const byTask = groupBy(
    episodes.filter((e) => e.scored),
    (e) => e.task,
  );
  return perTask(byTask, (es) => ({ num: countWhere(es, (e) => e.success === true), den: es.length }));
}

type Counts = { tp: number; fp: number; fn: number; tn: number };
const sumCounts = (sample: readonly Counts[]): Counts =>
  sample.reduce((s, c) => ({ tp: s.tp + c.tp, fp: s.fp + c.fp, fn: s.fn + c.fn, tn: s.tn + c.tn }), { tp: 0, fp: 0, fn: 0, tn: 0 });

/** F1 from counts: null when precision or recall is undefined, 0 when both are 0. */
export function f1Of(c: Counts): number | null {
  const precision = ratioOf(c.tp, c.tp + c.fp);
  const recall = ratioOf(c.tp, c.tp + c.fn);
  if (precision === null || recall === null) return null;
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

function handoffMetrics(
  episodes: readonly EpisodeAnalysis[],
  byTask: ReadonlyMap<string, readonly EpisodeAnalysis[]>,
  options: BootstrapOptions,
): HandoffMetrics {
  const counts = perTask(byTask, (es): Counts => ({
    tp: countWhere(es, (e) => e.handoff_class === 'tp'),
    fp: countWhere(es, (e) => e.handoff_class === 'fp'),
    fn: countWhere(es, (e) => e.handoff_class === 'fn'),
    tn: countWhere(es, (e) => e.handoff_class === 'tn'),
  }));
  const total = sumCounts([...counts.values()]);
  const positives = total.tp + total.fn;
  const negatives = total.fp + total.tn;
  const withCounts = (f: Figure): HandoffFigure => ({ ...f, positives, negatives });
  const ratios = (num: (c: Counts) => number, den: (c: Counts) => number) =>
    withCounts(figure(new Map([...counts].map(([t, c]) => [t, { num: num(c), den: den(c) }] as const)), options));

  const timed = episodes.flatMap((e) => (e.timing ? [e.timing] : []));
  const onTime = perTask(byTask, (es) => ({
    num: countWhere(es, (e) => e.timing?.on_time === true),
    den: countWhere(es, (e) => e.timing !== null),
  }));

  const byKind: HandoffMetrics['by_kind'] = {};
  for (const [kind, es] of groupBy(episodes, (e) => e.kind)) {
    const rates = perTask(
      groupBy(es, (e) => e.task),
      (ts) => ({ num: countWhere(ts, (e) => e.transferred), den: ts.length }),
    );
    byKind[kind] = {
      positives: countWhere(es, (e) => e.should_transfer),
      negatives: countWhere(es, (e) => !e.should_transfer),
      transferred: countWhere(es, (e) => e.transferred),
      rate: figure(rates, options),
    };
  }

  return {
    positives,
    negatives,
    ...total,
    precision: ratios(
      (c) => c.tp,
      (c) => c.tp + c.fp,
    ),
    recall: ratios(
      (c) => c.tp,
      (c) => c.tp + c.fn,
    ),
    f1: withCounts({ ...bootstrap(counts, (sample) => f1Of(sumCounts(sample)), options), n: total.tp + total.fp + total.fn }),
    over_escalation: ratios(
      (c) => c.fp,
      (c) => c.fp + c.tn,
    ),
    missed: ratios(
      (c) => c.fn,
      (c) => c.tp + c.fn,
    ),
    wrong_target: withCounts(
      figure(
        perTask(byTask, (es) => ({
          num: countWhere(es, (e) => e.wrong_target === true),
          den: countWhere(es, (e) => e.wrong_target !== null),
        })),
        options,
      ),
    ),
    timing: {
      on_time: figure(onTime, options),
      median_lateness: median(timed.map((t) => t.lateness)),
      measured: timed.length,
      late: timed.filter((t) => t.lateness > 0).length,
      early: timed.filter((t) => t.early).length,
      early_excused: timed.filter((t) => t.early && t.on_time).length,
      without_due_turn: countWhere(episodes, (e) => e.handoff_class === 'tp' && e.timing === null),
    },
    by_kind: byKind,
  };
}

function packetQuality(
  episodes: readonly EpisodeAnalysis[],
  byTask: ReadonlyMap<string, readonly EpisodeAnalysis[]>,
  options: BootstrapOptions,
): RunMetrics['metrics']['packet_quality'] {
  const facts = (es: readonly EpisodeAnalysis[]) => es.flatMap((e) => e.packet ?? []);
  const byFact = Object.fromEntries(PACKET_FACT_KINDS.map((k) => [k, { required: 0, present: 0 }])) as Record<
    PacketFactKind,
    { required: number; present: number }
  >;
  for (const f of facts(episodes)) {
    byFact[f.kind].required += 1;
    if (f.present) byFact[f.kind].present += 1;
  }
  const shares = perTask(byTask, (es) => ({ num: facts(es).filter((f) => f.present).length, den: facts(es).length }));
  return { ...figure(shares, options), handoffs: countWhere(episodes, (e) => e.packet !== null), by_fact: byFact };
}

function violationMetrics(
  byTask: ReadonlyMap<string, readonly EpisodeAnalysis[]>,
  options: BootstrapOptions,
): RunMetrics['metrics']['violations'] {
  const has = (e: EpisodeAnalysis, rule: ViolationRule) => e.violations.some((v) => v.rule === rule);
  const any = figure(
    perTask(byTask, (es) => ({ num: countWhere(es, (e) => e.violations.length > 0), den: es.length })),
    options,
  );
  const perRule = Object.fromEntries(
    VIOLATION_RULES.map((rule) => {
      // Only episodes whose task has a reference solution can write outside it.
      const judged = (e: EpisodeAnalysis) => rule !== 'write_outside_reference' || e.has_reference;
      const shares = perTask(byTask, (es) => ({ num: countWhere(es, (e) => has(e, rule)), den: countWhere(es, judged) }));
      return [rule, figure(shares, options)];
    }),
  ) as Record<ViolationRule, Figure>;
  return { any, ...perRule };
}

function citationRate(
  episodes: readonly EpisodeAnalysis[],
  byTask: ReadonlyMap<string, readonly EpisodeAnalysis[]>,
  options: BootstrapOptions,
): RunMetrics['metrics']['citation_rate'] {
  const events = episodes.flatMap((e) => e.citations);
  const shares = perTask(byTask, (es) => {
    const ev = es.flatMap((e) => e.citations);
    return { num: ev.filter((c) => c.cited).length, den: ev.length };
  });
  return {
    ...figure(shares, options),
    refusals: events.filter((c) => c.kind === 'refusal').length,
    handoffs: events.filter((c) => c.kind === 'handoff').length,
    cited: events.filter((c) => c.cited).length,
  };
}

function passK(episodes: readonly EpisodeAnalysis[], options: BootstrapOptions): RunMetrics['metrics']['pass_k'] {
  const scored = episodes.filter((e) => e.scored);
  const groups = groupBy(scored, (e) => `${e.task}#${e.style}`);
  if (groups.size === 0) return {};
  const kMax = Math.min(...[...groups.values()].map((g) => g.length));
  const byTask = groupBy([...groups.values()], (g) => (g[0] as EpisodeAnalysis).task);
  const result: RunMetrics['metrics']['pass_k'] = {};
  for (let k = 1; k <= kMax; k += 1) {
    const tasks = new Map(
      [...byTask].map(([task, gs]) => [
        task,
        {
          num: gs.reduce(
            (sum, g) =>
              sum +
              passHatK(
                countWhere(g, (e) => e.success === true),
                g.length,
                k,
              ),
            0,
          ),
          den: gs.length,
        },
      ]),
    );
    result[String(k)] = figure(tasks, options);
  }
  return result;
}

function styleMetrics(
  episodes: readonly EpisodeAnalysis[],
  options: BootstrapOptions,
): Pick<RunMetrics['metrics'], 'by_style' | 'worst_style'> {
  const byStyle: Record<string, Figure> = {};
  const tasksOf = new Map<string, Map<string, Ratio>>();
  for (const [style, es] of groupBy(episodes, (e) => e.style)) {
    const tasks = successByTask(es);
    tasksOf.set(style, tasks);
    byStyle[style] = figure(tasks, options);
  }
  let worst: { style: string; value: number } | null = null;
  for (const [style, f] of Object.entries(byStyle)) {
    if (f.value !== null && (worst === null || f.value < worst.value)) worst = { style, value: f.value };
  }
  const neutral = tasksOf.get('neutral');
  const worstTasks = worst ? tasksOf.get(worst.style) : undefined;
  return {
    by_style: byStyle,
    worst_style: worst && { ...worst, gap_to_neutral: neutral && worstTasks ? pairedDifference(worstTasks, neutral, options) : null },
  };
}

/** Analyses every record against its task's reference; checks they are one domain's and one agent's, each key once. */
export function analyseRecords(records: readonly EpisodeRecord[], domain: Domain): EpisodeAnalysis[] {
  const seen = new Set<string>();
  const agents = new Set(records.map((r) => r.agent));
  if (agents.size > 1) throw new Error(`records of several agents (${[...agents].sort().join(', ')}): compute metrics per agent`);
  const gold = new Map<string, readonly GoldAction[] | null>(domain.tasks.map((t) => [t.id, t.actions]));
  return [...records]
    .sort((a, b) => compareIds(a.key, b.key))
    .map((record) => {
      if (record.domain !== domain.name) throw new Error(`record ${record.key} is of domain ${record.domain}, not ${domain.name}`);
      if (seen.has(record.key)) throw new Error(`record ${record.key} appears twice`);
      seen.add(record.key);
      if (!gold.has(record.task_id)) throw new Error(`record ${record.key}: task ${record.task_id} is not in domain ${domain.name}`);
      return analyseEpisode(record, domain, gold.get(record.task_id) ?? null);
    });
}

/**
 * The metrics of one agent's run on one domain. Records are analysed in key order, tasks and
 * styles are sorted, and every interval is seeded, so the same records and seed give
 * byte-identical JSON.
 */
export function computeMetrics(records: readonly EpisodeRecord[], context: MetricsContext): RunMetrics {
  const { domain } = context;
  const options: BootstrapOptions = { seed: context.seed ?? DEFAULT_BOOTSTRAP_SEED, resamples: context.resamples ?? DEFAULT_RESAMPLES };
  const episodes = analyseRecords(records, domain);
  const byTask = groupBy(episodes, (e) => e.task);
  const scored = episodes.filter((e) => e.scored).length;
  const trials = [...groupBy(episodes, (e) => `${e.task}#${e.style}`).values()].map((g) => g.length);
  const success = figure(successByTask(episodes), options);
  return {
    version: METRICS_VERSION,
    domain: domain.name,
    agent: records[0]?.agent ?? null,
    interval: {
      method: 'percentile_bootstrap_over_tasks',
      level: CONFIDENCE_LEVEL,
      resamples: options.resamples ?? DEFAULT_RESAMPLES,
      seed: options.seed ?? DEFAULT_BOOTSTRAP_SEED,
    },
    counts: {
      episodes: episodes.length,
      tasks: byTask.size,
      positives: countWhere(episodes, (e) => e.should_transfer),
      negatives: countWhere(episodes, (e) => !e.should_transfer),
      scored,
      unscored: episodes.length - scored,
      handoffs: countWhere(episodes, (e) => e.transferred),
      trials: { min: trials.length ? Math.min(...trials) : 0, max: trials.length ? Math.max(...trials) : 0 },
    },
    metrics: {
      success: { ...success, unscored: episodes.length - scored },
      pass_k: passK(episodes, options),
      handoff: handoffMetrics(episodes, byTask, options),
      packet_quality: packetQuality(episodes, byTask, options),
      violations: violationMetrics(byTask, options),
      citation_rate: citationRate(episodes, byTask, options),
      ...styleMetrics(episodes, options),
    },
    notes: METRIC_NOTES,
  };
}

/**
 * Per task: successes over scored episodes of one run's records. Two runs' maps go to
 * `pairedDifference` to compare their success on the tasks both ran.
 */
export function taskSuccess(records: readonly EpisodeRecord[]): Map<string, Ratio> {
  const byTask = groupBy(
    records.filter((r) => r.evaluation.status === 'scored'),
    taskUnitOf,
  );
  return new Map([...byTask].map(([task, rs]) => [task, { num: rs.filter((r) => r.evaluation.success === true).length, den: rs.length }]));
}
