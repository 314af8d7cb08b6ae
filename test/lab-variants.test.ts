import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { HANDOFF_MANIFEST_FILE, loadLabDomains, tasksGenerate, tasksShow, tasksStats } from '../src/cli/tasks-command.js';
import { DECIDER_REASONS } from '../src/core/index.js';
import type { Domain, DomainName, DomainTask } from '../src/domains/domain.js';
import {
  baseScript,
  buildManifest,
  firstPersonRequest,
  generateVariants,
  HANDOFF_VARIANT_SEED,
  kindsFor,
  renderManifest,
  sourceSplits,
  variantsChecksum,
  type HandoffManifest,
} from '../src/lab/variants/index.js';
import { NEGATIVE_KINDS, POSITIVE_KINDS, type HandoffVariant } from '../src/lab/variant.js';
import { tau2DirForTests } from './support/tau2-dir.js';

const SEED = HANDOFF_VARIANT_SEED;
let domains: Domain[];
let variants: HandoffVariant[];
const domainOf = (name: DomainName) => domains.find((d) => d.name === name)!;
const taskOf = (v: HandoffVariant): DomainTask => domainOf(v.domain).tasks.find((t) => t.id === v.source)!;

/** The text a fact may be taken from: the scenario, and for billing the gold actions too. */
function sourceText(task: DomainTask): string {
  const i = task.userScenario.instructions;
  const scenario = typeof i === 'string' ? i : `${i.reason_for_call}\n${i.known_info ?? ''}`;
  return task.domain === 'billing' ? `${scenario}\n${JSON.stringify(task.actions)}` : scenario;
}

beforeAll(async () => {
  domains = await loadLabDomains({ tau2Dir: tau2DirForTests() });
  variants = generateVariants(domains, { seed: SEED });
});

describe('splits', () => {
  it('gives every variant the split of its source, with dev a seeded fifth of the train sources', () => {
    expect(variants.length).toBeGreaterThan(0);
    for (const domain of domains) {
      const splits = sourceSplits(domain, SEED);
      const train = domain.tasks.filter((t) => t.split === 'train');
      const dev = domain.tasks.filter((t) => splits.get(t.id) === 'dev');
      expect(dev.length).toBe(Math.round(train.length / 5));
      // dev comes only from train; test stays test; nothing else moves.
      for (const task of domain.tasks) {
        const split = splits.get(task.id);
        expect(task.split === 'test' ? split === 'test' : split === 'train' || split === 'dev').toBe(true);
      }
    }
    for (const v of variants) {
      expect(v.split).toBe(sourceSplits(domainOf(v.domain), SEED).get(v.source));
      if (v.split === 'dev') expect(taskOf(v).split).toBe('train');
      if (v.split === 'test') expect(taskOf(v).split).toBe('test');
    }
  });

  it('never puts one source in two splits', () => {
    const seen = new Map<string, string>();
    for (const v of variants) {
      const key = `${v.domain}/${v.source}`;
      expect(seen.get(key) ?? v.split).toBe(v.split);
      seen.set(key, v.split);
    }
    expect(seen.size).toBeGreaterThan(200);
  });

  it('carves dev by the seed', () => {
    const airline = domainOf('airline');
    const devOf = (seed: number) => [...sourceSplits(airline, seed)].filter(([, s]) => s === 'dev').map(([id]) => id);
    expect(devOf(SEED)).toEqual(devOf(SEED));
    expect(devOf(SEED + 1)).not.toEqual(devOf(SEED));
  });
});

describe('determinism', () => {
  it('gives the same variants, byte for byte, for the same seed, and others for another seed', () => {
    const again = generateVariants(domains, { seed: SEED });
    expect(JSON.stringify(again)).toBe(JSON.stringify(variants));
    expect(variantsChecksum(again)).toBe(variantsChecksum(variants));
    expect(variantsChecksum(generateVariants(domains, { seed: SEED + 1 }))).not.toBe(variantsChecksum(variants));
  });

  it("gives a domain's variants whatever other domains are generated with it", () => {
    const billingAlone = generateVariants([domainOf('billing')], { seed: SEED });
    expect(billingAlone).toEqual(variants.filter((v) => v.domain === 'billing'));
  });
});

describe('the committed manifest', () => {
  it('is what the generator writes from the shared tau2-bench data', () => {
    const committed = readFileSync(HANDOFF_MANIFEST_FILE, 'utf8');
    expect(committed).toBe(renderManifest(buildManifest(variants, domains, SEED)));
    const manifest = JSON.parse(committed) as HandoffManifest;
    expect(manifest.seed).toBe(SEED);
    expect(manifest.checksum.value).toBe(variantsChecksum(variants));
    expect(manifest.tau2.task_version).toBe('current');
    expect(manifest.variants.map((v) => v.id)).toEqual(variants.map((v) => v.id));
  });

  it('holds labels only, no text from the scenarios', () => {
    const manifest = JSON.parse(readFileSync(HANDOFF_MANIFEST_FILE, 'utf8')) as HandoffManifest;
    // The checksum's hex digits could spell a zip code by chance: leave them out of the search.
    const committed = readFileSync(HANDOFF_MANIFEST_FILE, 'utf8').replace(manifest.checksum.value, '');
    const keys = ['id', 'domain', 'source', 'kind', 'split', 'should_transfer', 'expected_target', 'expected_reason', 'due_turn'];
    for (const entry of manifest.variants) expect(Object.keys(entry)).toEqual(keys);
    for (const v of variants.filter((x) => x.domain !== 'billing')) {
      expect(committed.includes(v.script.request)).toBe(false);
      for (const fact of v.script.facts) expect(committed.includes(fact.value)).toBe(false);
    }
  });
});

describe('counts', () => {
  it('has at least 460 airline and retail variants, at least 40% of them hard negatives, and billing', () => {
    const tau2 = variants.filter((v) => v.domain !== 'billing');
    expect(tau2.length).toBeGreaterThanOrEqual(460);
    expect(tau2.filter((v) => !v.should_transfer).length / tau2.length).toBeGreaterThanOrEqual(0.4);
    expect(variants.filter((v) => v.domain === 'billing').length).toBeGreaterThanOrEqual(150);
  });

  it('has every kind that applies to a domain in that domain, in each split, and no other', () => {
    for (const domain of domains) {
      const mine = variants.filter((v) => v.domain === domain.name);
      expect(new Set(mine.map((v) => v.kind))).toEqual(new Set(kindsFor(domain.name)));
      for (const split of ['train', 'dev', 'test'] as const) {
        expect(new Set(mine.filter((v) => v.split === split).map((v) => v.kind))).toEqual(new Set(kindsFor(domain.name)));
      }
    }
    expect(kindsFor('airline')).not.toContain('over_limit_refund');
    expect(kindsFor('billing')).toContain('over_limit_refund');
  });

  it('balances the twist kinds of airline and retail', () => {
    for (const name of ['airline', 'retail'] as const) {
      const counts = Object.values(
        variants
          .filter((v) => v.domain === name)
          .reduce<Record<string, number>>((acc, v) => ({ ...acc, [v.kind]: (acc[v.kind] ?? 0) + 1 }), {}),
      );
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(4);
    }
  });
});

describe('labels', () => {
  it('are whole and consistent for every variant', () => {
    const ids = new Set<string>();
    for (const v of variants) {
      expect(v.id).toBe(`${v.domain}/${v.source}/${v.kind}`);
      expect(ids.has(v.id)).toBe(false);
      ids.add(v.id);
      expect(v.label_rule.length).toBeGreaterThan(20);
      expect(v.should_transfer).toBe((POSITIVE_KINDS as readonly string[]).includes(v.kind));
      if (v.should_transfer) {
        expect(domainOf(v.domain).queues.map((q) => q.id)).toContain(v.expected_target);
        expect(DECIDER_REASONS).toContain(v.expected_reason);
        expect(v.due_turn).toBeGreaterThanOrEqual(1);
        expect(v.due_turn).toBeLessThanOrEqual(v.script.maxTurns);
      } else {
        expect((NEGATIVE_KINDS as readonly string[]).includes(v.kind)).toBe(true);
        expect([v.expected_target, v.expected_reason, v.due_turn]).toEqual([null, null, null]);
      }
      expect(v.outage !== null).toBe(v.kind === 'tool_outage');
      expect(v.script.onTransfer).toBe(v.kind === 'refuses_transfer' ? 'refuse' : 'accept');
      for (const beat of v.script.beats) expect(beat.turn).toBeLessThanOrEqual(v.script.maxTurns);
    }
  });

  it('follow each kind rule', () => {
    const reasons: Record<string, string> = {
      ask_human_direct: 'customer_request',
      ask_human_indirect: 'customer_request',
      out_of_scope: 'no_capability',
      drift_out_of_scope: 'no_capability',
      reserved_complaint: 'policy_topic',
      reserved_bereavement: 'policy_topic',
      reserved_legal: 'policy_topic',
      tool_outage: 'tool_failures',
      over_limit_refund: 'value_threshold',
    };
    for (const v of variants.filter((x) => x.should_transfer)) expect(v.expected_reason).toBe(reasons[v.kind]);
    const billing = variants.filter((v) => v.domain === 'billing' && v.should_transfer);
    const queue = (kind: string) => new Set(billing.filter((v) => v.kind === kind).map((v) => v.expected_target));
    expect(queue('reserved_complaint')).toEqual(new Set(['queue_complaints']));
    expect(queue('reserved_bereavement')).toEqual(new Set(['queue_bereavement']));
    expect(queue('reserved_legal')).toEqual(new Set(['queue_legal']));
    expect(queue('over_limit_refund')).toEqual(new Set(['queue_billing']));
    expect(queue('ask_human_direct')).toEqual(new Set(['queue_billing']));
    for (const v of variants.filter((x) => x.domain !== 'billing' && x.should_transfer))
      expect(v.expected_target).toBe('queue_human_agents');
    // A beat-driven hand-off is due at the beat's turn.
    for (const v of variants.filter((x) =>
      ['ask_human_direct', 'ask_human_indirect', 'reserved_complaint', 'reserved_legal', 'drift_out_of_scope'].includes(x.kind),
    )) {
      if (v.script.beats.length > 0) expect(v.due_turn).toBe(v.script.beats[0]!.turn);
    }
  });

  it('gives no twist to a source whose own gold actions hand off', () => {
    for (const v of variants) {
      if (taskOf(v).handoff.expected) expect(v.should_transfer && v.expected_target === taskOf(v).handoff.queue).toBe(true);
    }
    expect(variants.some((v) => v.domain === 'airline' && v.source === '13')).toBe(false);
  });

  it('draws test phrasings from a pool that train and dev never use', () => {
    const lines = (split: (s: string) => boolean) =>
      new Set(variants.filter((v) => v.domain !== 'billing' && split(v.split)).flatMap((v) => v.script.beats.map((b) => b.text)));
    const test = lines((s) => s === 'test');
    const rest = lines((s) => s !== 'test');
    expect(test.size).toBeGreaterThan(30);
    expect([...test].filter((t) => rest.has(t))).toEqual([]);
  });
});

describe('scripts', () => {
  it('take every fact verbatim from the scenario (or billing gold actions)', () => {
    let facts = 0;
    for (const v of variants) {
      const text = sourceText(taskOf(v));
      for (const fact of v.script.facts) {
        facts++;
        expect(text.includes(fact.value), `${v.id}: ${fact.key}=${fact.value}`).toBe(true);
        expect(fact.askedBy.length).toBeGreaterThan(0);
        expect(fact.askedBy.every((w) => w === w.toLowerCase())).toBe(true);
        expect(fact.volunteered).toBe(v.script.request.includes(fact.value));
      }
    }
    expect(facts).toBeGreaterThan(1000);
  });

  it('find the ids each domain authenticates with', () => {
    const base = (name: DomainName, id: string) =>
      baseScript(
        domainOf(name),
        domainOf(name).tasks.find((t) => t.id === id)!,
      );
    const keys = (name: DomainName, id: string) => Object.fromEntries(base(name, id).facts.map((f) => [f.key, f.value]));
    expect(keys('airline', '0')).toEqual({ name: 'Emma Kim', user_id: 'emma_kim_9957', reservation_id: 'EHGLP3' });
    expect(keys('retail', '0')).toEqual({ name: 'Yusuf Rossi', zip: '19122', order_id: '#W2378156' });
    expect(keys('retail', '35')).toMatchObject({
      user_id: 'aarav_santos_2259',
      email: 'aarav.santos8321@example.com',
      email_2: 'aarav.santos8320@example.com',
    });
    const billing = keys('billing', 'billing_001');
    expect(billing['email']).toBe('liam.evans.1089@example.com');
    expect(billing['code']).toBe('256732');
  });

  it('are plain for a source task: no beats, first person, accepts a transfer', () => {
    for (const domain of domains) {
      for (const task of domain.tasks) {
        const script = baseScript(domain, task);
        expect(script.beats).toEqual([]);
        expect(script.onTransfer).toBe('accept');
        expect(script.confirms).toBe(true);
        expect(script.request.length, `${domain.name}/${task.id}`).toBeGreaterThan(10);
        expect(script.request, `${domain.name}/${task.id}`).not.toMatch(/\byour\b(?! own\b)|\byou (?:want|are|have|need|wish)\b|^You\b/i);
        expect(script.request, `${domain.name}/${task.id}`).not.toMatch(/\bthe agent\b/i);
      }
    }
  });

  it('turns second person into first person by rule, and drops what only directs the simulator', () => {
    expect(firstPersonRequest('You want to cancel reservation EHGLP3.   It is ok because you were out of town.')).toBe(
      'I want to cancel reservation EHGLP3. It is ok because I was out of town.',
    );
    expect(firstPersonRequest('You want to exchange the lamp. If the agent asks for confirmation, only exchange the lamp.')).toBe(
      'I want to exchange the lamp.',
    );
    expect(firstPersonRequest('You forgot which items, so ask the agent to list them before proceeding.')).toBe(
      'I forgot which items, so please list them before proceeding.',
    );
    expect(firstPersonRequest('The correct item id is 5206946487 (do not share this with the agent). You want a refund.')).toBe(
      'I want a refund.',
    );
    expect(firstPersonRequest('A representative told you that an agent will help you. Your cat is sick.')).toBe(
      'A representative told me that an agent will help me. My cat is sick.',
    );
  });
});

describe('baton tasks functions', () => {
  it('stats count per domain', async () => {
    const stats = await tasksStats({ domains: ['billing'] });
    const billing = variants.filter((v) => v.domain === 'billing');
    expect(Object.keys(stats)).toEqual(['billing']);
    expect(stats.billing).toMatchObject({ total: billing.length, positives: billing.filter((v) => v.should_transfer).length });
    expect(Object.values(stats.billing!.by_split).reduce((a, b) => a + b, 0)).toBe(billing.length);
    expect(stats.billing!.by_kind.over_limit_refund).toBe(billing.filter((v) => v.kind === 'over_limit_refund').length);
  });

  it('show renders one variant with its label and script', async () => {
    const v = variants.find((x) => x.domain === 'retail' && x.kind === 'ask_human_direct')!;
    const text = await tasksShow(v.id, { tau2Dir: tau2DirForTests() });
    expect(text).toContain(v.id);
    expect(text).toContain(`hand off to queue_human_agents (customer_request), due from customer turn ${v.due_turn}`);
    expect(text).toContain(v.script.request);
    expect(text).toContain(v.script.beats[0]!.text);
    for (const fact of v.script.facts) expect(text).toContain(`${fact.key} = ${fact.value}`);
    await expect(tasksShow('billing/billing_001/nothing')).rejects.toThrow(
      /no variant billing\/billing_001\/nothing; billing\/billing_001 has: /,
    );
    await expect(tasksShow('mars/1/x')).rejects.toThrow(/not a variant id/);
  });

  it('generate writes the manifest, and reports no change the second time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-manifest-'));
    try {
      const out = join(dir, 'manifest.json');
      const first = await tasksGenerate({ tau2Dir: tau2DirForTests(), out });
      expect(first).toMatchObject({ path: out, seed: SEED, changed: true, total: variants.length, checksum: variantsChecksum(variants) });
      expect(readFileSync(out, 'utf8')).toBe(readFileSync(fileURLToPath(HANDOFF_MANIFEST_FILE), 'utf8'));
      expect((await tasksGenerate({ tau2Dir: tau2DirForTests(), out })).changed).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
