import { describe, expect, it } from 'vitest';
import { loadDomain } from '../../domains/load-domain.js';
import { USER_STOP_MARKERS } from '../../domains/trajectory.js';
import { EnvSession, withoutStopMarkers } from './session.js';
import { envSessionOptions } from './setup.js';

describe('an environment session', () => {
  it('says so when the episode is over at reset, with its task, policy and tools, and no stop marker as the customer', async () => {
    const domain = await loadDomain('billing');
    const options = envSessionOptions(domain, { tasks: 'handoff', split: 'dev', reward: 'r2', checks: 'production' });
    // Variants whose customer asks for a person in the opening message: the decider hands off before the agent's turn.
    const direct = options.plan.filter((p) => p.variant?.kind === 'ask_human_direct' && p.variant.due_turn === 1);
    const session = new EnvSession(options);
    let over: { key: string; result: Awaited<ReturnType<EnvSession['reset']>> } | null = null;
    for (const planned of direct) {
      const result = await session.reset({ task: planned.key });
      if (result.done) {
        over = { key: planned.key, result };
        break;
      }
    }
    session.close();
    expect(over, 'a variant whose opening asks for a person is over at reset').not.toBeNull();
    const { result, key } = over!;
    expect(result.observation).toMatchObject({
      task: key,
      over_at_reset: true,
      why_over: expect.stringMatching(/before the agent's first turn/),
    });
    // The same system prompt an episode's first request carries.
    const second = new EnvSession(options);
    const other = await second.reset({ task: options.plan.find((p) => p.variant?.kind !== 'ask_human_direct')!.key });
    second.close();
    expect(other.done).toBe(false);
    expect(result.observation['policy']).toBe(other.observation['policy']);
    expect(result.observation['policy']).toContain(domain.policy);
    const tools = (result.observation['tools'] as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(tools).toContain('handoff');
    expect(tools.length).toBeGreaterThan(5);
    // The customer's opening is what the agent is shown, not the simulator's marker-only last turn.
    expect(result.observation['customer_message']).toEqual(expect.stringMatching(/\w{3}/));
    const said = JSON.stringify(result.observation['customer_message']);
    for (const marker of USER_STOP_MARKERS) expect(said).not.toContain(marker);
  });

  it("strips the simulator's stop markers from what a customer says", () => {
    expect(withoutStopMarkers('###TRANSFER###')).toBeNull();
    expect(withoutStopMarkers('Thanks, bye! ###STOP###')).toBe('Thanks, bye!');
    expect(withoutStopMarkers('no markers here')).toBe('no markers here');
  });
});
