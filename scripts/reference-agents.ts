/**
 * The reference agents on every domain's hand-off variants and on billing's own tasks, with the
 * scripted customer in the neutral style: the table in docs/lab.md. Run with
 * `BATON_TAU2_DIR=… npx tsx scripts/reference-agents.ts` (or `--tau2-dir DIR`).
 */
import { loadDomain } from '../src/domains/load-domain.js';
import type { Domain } from '../src/domains/domain.js';
import { referenceAgent, type AgentName } from '../src/lab/agents/index.js';
import { episodeAgent } from '../src/lab/run-episode.js';
import { runSet, type SetItem } from '../src/lab/run-set.js';
import { taskScript } from '../src/lab/task-scripts.js';
import { createScriptedUser } from '../src/lab/users/scripted-user.js';
import { generateVariants, HANDOFF_VARIANT_SEED } from '../src/lab/variants/index.js';

const dirFlag = process.argv.indexOf('--tau2-dir');
const tau2Dir = dirFlag >= 0 ? process.argv[dirFlag + 1] : undefined;
const domains: Domain[] = [];
for (const name of ['billing', 'airline', 'retail'] as const) domains.push(await loadDomain(name, tau2Dir ? { tau2Dir } : {}));
const variants = generateVariants(domains, { seed: HANDOFF_VARIANT_SEED });
const agents: AgentName[] = ['rule', 'always-transfer', 'never-transfer'];

const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`);
const rows: string[] = [];
for (const domain of domains) {
  const sets: { name: string; items: SetItem[] }[] = [
    {
      name: 'variants',
      items: variants
        .filter((v) => v.domain === domain.name)
        .map((variant) => ({ task: domain.tasks.find((t) => t.id === variant.source)!, variant })),
    },
  ];
  if (domain.name === 'billing') sets.unshift({ name: 'tasks', items: domain.tasks.map((task) => ({ task, variant: null })) });
  for (const set of sets) {
    for (const agent of agents) {
      const { summary } = await runSet({
        domain,
        items: set.items,
        seed: 1,
        agent: (item) => episodeAgent(agent, referenceAgent(agent, domain, { task: item.task })),
        user: (item, seed) =>
          createScriptedUser(item.variant?.script ?? taskScript(domain, item.task, variants), { style: 'neutral', seed }),
      });
      const h = summary.handoff;
      const handedOff = h.true_positive + h.early + h.wrong_target + h.over_escalation;
      const precision = pct(h.true_positive, handedOff);
      const recall = pct(h.true_positive, h.positives);
      rows.push(
        `| ${domain.name} | ${set.name} | ${agent} | ${summary.episodes} | ${pct(summary.successes, summary.scored)} | ${h.positives}/${h.negatives} | ${precision} | ${recall} | ${pct(h.over_escalation, h.negatives)} | ${h.early} | ${h.wrong_target} |`,
      );
      process.stderr.write(`${rows.at(-1)}\n`);
    }
  }
}
process.stdout.write(
  [
    '| domain | set | agent | episodes | success | positives/negatives | hand-off precision | recall | over-escalation | early | wrong target |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n') + '\n',
);
