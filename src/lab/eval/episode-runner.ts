/**
 * The episodes of a run, one at a time (as many at once as the caller asks): the agent (a
 * reference agent, or the model endpoint's policy with its calls counted), the simulated customer
 * and the store of each planned episode, and the record it leaves. The main thread and every
 * worker thread of `baton eval` run episodes with this.
 */
import type { Domain, DomainTask } from '../../domains/domain.js';
import { createOpenAiPolicy } from '../../llm/openai-policy.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/store.js';
import { referenceAgent } from '../agents/index.js';
import { infrastructureFailure } from '../metrics/infrastructure.js';
import { toRecord, type EpisodeRecord } from '../records.js';
import { episodeAgent, runEpisode, type EpisodeAgent } from '../run-episode.js';
import { taskScript } from '../task-scripts.js';
import type { UserSimulator } from '../user.js';
import { createLlmUser, loadUserGuidelines } from '../users/llm-user.js';
import { renderUserScenario } from '../users/script-text.js';
import { createScriptedUser } from '../users/scripted-user.js';
import type { HandoffVariant } from '../variant.js';
import type { EvalConfig, Planned } from './run-eval.js';

/** Runs the planned episodes of one run: what a worker thread does as well as the main thread. */
export interface EpisodeRunner {
  run(planned: Planned): Promise<EpisodeRecord>;
  close(): Promise<void>;
}

/** The simulated customer of each planned episode: scripted, or an LLM playing the task's scenario in the episode's style. */
export function createUserFactory(
  config: Pick<EvalConfig, 'user' | 'userModel' | 'concurrency'>,
  domain: Domain,
  variants: readonly HandoffVariant[],
  guidelines: string,
): (planned: Planned) => UserSimulator {
  return (p: Planned): UserSimulator => {
    const script = p.variant?.script ?? taskScript(domain, p.task, variants);
    if (config.user === 'scripted' || !config.userModel) return createScriptedUser(script, { style: p.style, seed: p.seed });
    return createLlmUser({
      baseURL: config.userModel.baseURL,
      model: config.userModel.model,
      ...(config.userModel.apiKey ? { apiKey: config.userModel.apiKey } : {}),
      style: p.style,
      guidelines,
      // tau2-bench's scenario as its own user simulator reads it; the variant's twist comes as the instruction.
      scenario: renderUserScenario(p.task.userScenario),
      instruction: p.variant?.instruction ?? '',
      concurrency: config.concurrency,
    });
  };
}

/** The runner of a run's episodes; `close` releases its store. */
export async function createEpisodeRunner(config: EvalConfig, domain: Domain, variants: readonly HandoffVariant[]): Promise<EpisodeRunner> {
  const guidelines = config.user === 'llm' ? await loadUserGuidelines(config.tau2Dir) : '';
  const agentPolicy =
    config.agent === 'llm' && config.agentModel
      ? createOpenAiPolicy({
          baseURL: config.agentModel.baseURL,
          model: config.agentModel.model,
          ...(config.agentModel.apiKey ? { apiKey: config.agentModel.apiKey } : {}),
          concurrency: config.concurrency,
        })
      : null;
  // A model policy's calls are counted per episode: a run whose endpoint never answered measured no model.
  const agentFor = (task: DomainTask, calls: { answered: number; failed: number }): EpisodeAgent =>
    episodeAgent(
      config.agent,
      agentPolicy
        ? {
            name: agentPolicy.name,
            next: async (request) => {
              const response = await agentPolicy.next(request);
              if (response.ok) calls.answered += 1;
              else calls.failed += 1;
              return response;
            },
          }
        : referenceAgent(config.agent, domain, { task }),
    );
  const userFor = createUserFactory(config, domain, variants, guidelines);

  const shared: Store | null = config.store.kind === 'memory' ? null : await openStore(config.store);
  return {
    async run(p) {
      const store = shared ?? (await openStore({ kind: 'memory' }));
      const started = performance.now();
      const calls = { answered: 0, failed: 0 };
      const result = await runEpisode({
        domain,
        task: p.task,
        variant: p.variant,
        agent: agentFor(p.task, calls),
        user: userFor(p),
        store,
        seed: p.seed,
      });
      const record: EpisodeRecord = {
        ...toRecord(result, { variant: p.variant, split: p.split, user: config.user, trial: p.trial, seed: p.seed }),
        wall_ms: Math.round(performance.now() - started),
        ...(agentPolicy ? { model_calls: calls } : {}),
      };
      const failure = infrastructureFailure(record);
      return failure === null ? record : { ...record, infrastructure_failure: failure };
    },
    close: async () => {
      await shared?.close();
    },
  };
}
