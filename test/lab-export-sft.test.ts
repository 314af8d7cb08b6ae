import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDomain } from '../src/domains/load-domain.js';
import { exportSft, parseSftFilters, SFT_FILTERS, type SftFilter, type SftLine } from '../src/lab/export/sft.js';
import type { EpisodeRecord } from '../src/lab/records.js';
import { makeRun } from './support/lab-runs.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'baton.js');
const baton = (args: string[], cwd: string) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd, env: { PATH: process.env['PATH'], HOME: cwd } });

const records = (runDir: string): EpisodeRecord[] =>
  readFileSync(join(runDir, 'trajectories.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as EpisodeRecord);

const lines = (file: string): SftLine[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as SftLine);

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

describe('baton export sft', () => {
  let root: string;
  let rule: string;
  let always: string;
  let seq = 0;
  const out = () => join(root, `out-${(seq += 1)}.jsonl`);
  const exported = async (runDirs: string[], filters: SftFilter[]) => {
    const file = out();
    const summary = await exportSft({ runDirs, out: file, filters });
    return { summary, lines: lines(file) };
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'baton-export-sft-'));
    rule = await makeRun(root, 'rule');
    always = await makeRun(root, 'always-transfer');
  }, 180_000);

  it('writes every dialogue as {messages, tools, metadata} in the chat format with tool calls', async () => {
    const { summary, lines: all } = await exported([rule, always], []);
    const source = [...records(rule), ...records(always)];
    expect(summary).toMatchObject({ runs: 2, read: source.length, kept: source.length });
    expect(all).toHaveLength(source.length);
    const billing = await loadDomain('billing');
    const byKey = new Map(source.map((r) => [`${r.agent}:${r.key}`, r]));
    let refusedOrFailed = 0;
    for (const line of all) {
      expect(Object.keys(line).sort()).toEqual(['messages', 'metadata', 'tools']);

      const names = line.tools.map((t) => t.function.name);
      expect(names).toContain('handoff');
      expect(names).toEqual(expect.arrayContaining(billing.tools.map((t) => t.name)));
      for (const tool of line.tools) {
        expect(tool.type).toBe('function');
        expect(tool.function.description).toBeTruthy();
        expect(tool.function.parameters).toMatchObject({ type: 'object', properties: expect.any(Object) });
      }

      const [system, ...rest] = line.messages;
      expect(system?.role).toBe('system');
      // Every template can render it: the customer opens (no canned greeting), and no content is null.
      expect(rest[0]?.role).toBe('user');
      expect(line.messages.every((m) => typeof m.content === 'string')).toBe(true);
      expect(system?.content).toContain(billing.policy);
      expect(rest.filter((m) => m.role === 'system')).toEqual([]);
      expect(line.messages.at(-1)?.role).not.toBe('user');
      const answered = new Map<string, string>();
      line.messages.forEach((m, i) => {
        expect(ROLES.has(m.role)).toBe(true);
        if (m.role === 'assistant') {
          for (const call of m.tool_calls ?? []) {
            expect(call.type).toBe('function');
            expect(names).toContain(call.function.name);
            expect(call.function.arguments).toBeTypeOf('object');
            expect(Array.isArray(call.function.arguments)).toBe(false);
            const result = line.messages.slice(i + 1).find((r) => r.role === 'tool' && r.tool_call_id === call.id);
            expect(result, `${line.metadata.key}: a result for ${call.id}`).toMatchObject({ name: call.function.name });
            answered.set(call.id, call.function.name);
          }
        }
        if (m.role === 'tool') {
          expect(answered.get(m.tool_call_id)).toBe(m.name);
          expect(m.content).toMatch(new RegExp(`^<tool_output name="${m.name}">\\n[^]*\\n</tool_output>$`));
        }
      });

      // Nothing the agent did is cut, refused calls and failed ones included; only the customer's unanswered last words are.
      const record = byKey.get(`${line.metadata.agent}:${line.metadata.key}`) as EpisodeRecord;
      const calls = record.messages.flatMap((m) => (m.role === 'tool' ? [] : m.toolCalls));
      expect(line.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : [])).map((c) => c.id)).toEqual(
        calls.map((c) => c.id),
      );
      refusedOrFailed += record.messages.filter((m) => m.role === 'tool' && m.executed === false).length;
      const lastAgent = record.messages.findLastIndex((m) => m.role !== 'user');
      const said = (ms: readonly { role: string; content: string | null }[]) => ms.filter((m) => m.role === 'user').map((m) => m.content);
      expect(said(line.messages.map((m) => ({ role: m.role, content: m.content })))).toEqual(said(record.messages.slice(0, lastAgent)));

      expect(line.metadata).toEqual({
        run_dir: line.metadata.agent === 'rule' ? rule : always,
        key: record.key,
        domain: 'billing',
        task_id: record.task_id,
        variant_id: record.variant_id,
        kind: record.kind,
        split: 'dev',
        style: record.style,
        trial: record.trial,
        agent: record.agent,
        success: record.evaluation.success,
        reward: record.evaluation.reward,
        handed_off: record.evaluation.handoff.transferred,
        target: expect.toBeOneOf([null, expect.any(String)]),
        should_transfer: record.label.should_transfer,
        expected_target: record.label.expected_target,
        handoff_class: expect.stringMatching(/^(tp|fp|fn|tn)$/),
        violations: { count: expect.any(Number), rules: expect.any(Array) },
      });
    }
    // The runs have calls that did not run (outages), and they are in the export.
    expect(refusedOrFailed).toBeGreaterThan(0);
  });

  it('success keeps exactly the episodes the evaluator scored a success', async () => {
    const { summary, lines: kept } = await exported([rule, always], ['success']);
    const expected = [...records(rule), ...records(always)].filter((r) => r.evaluation.success === true);
    expect(expected.length).toBeGreaterThan(0);
    expect(kept.map((l) => `${l.metadata.agent}:${l.metadata.key}`).sort()).toEqual(expected.map((r) => `${r.agent}:${r.key}`).sort());
    expect(kept.every((l) => l.metadata.success === true)).toBe(true);
    expect(summary.droppedBy.success).toBe(summary.read - expected.length);
  });

  it('correct-handoff keeps only the due hand-offs to the labelled queue, for an agent that always hands off', async () => {
    const { summary, lines: kept } = await exported([always], ['correct-handoff']);
    const all = records(always);
    const correct = all.filter((r) => {
      const facts = r.evaluation.handoff;
      const target = facts.target ?? r.handoff?.target ?? null;
      return facts.transferred
        ? r.label.should_transfer && (r.label.expected_target === null || target === r.label.expected_target)
        : !r.label.should_transfer;
    });
    expect(all.some((r) => !r.label.should_transfer)).toBe(true);
    expect(kept.map((l) => l.metadata.key).sort()).toEqual(correct.map((r) => r.key).sort());
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every((l) => l.metadata.should_transfer && l.metadata.handed_off && l.metadata.handoff_class === 'tp')).toBe(true);
    expect(kept.every((l) => l.metadata.expected_target === null || l.metadata.target === l.metadata.expected_target)).toBe(true);
    expect(summary.droppedBy['correct-handoff']).toBe(all.length - correct.length);
  });

  it('no-violation drops a dialogue that breaks a policy rule', async () => {
    // A copy of the rule run in which one agent message says something with its tool call: two actions in one turn.
    const copy = join(root, 'rule-with-violation');
    cpSync(rule, copy, { recursive: true });
    const file = join(copy, 'trajectories.jsonl');
    const source = records(copy);
    const target = source.find((r) => r.messages.some((m) => m.role === 'assistant' && m.toolCalls.some((c) => c.name !== 'handoff')));
    if (!target) throw new Error('no episode with a tool call');
    const broken = {
      ...target,
      messages: target.messages.map((m) =>
        m.role === 'assistant' && m.toolCalls.some((c) => c.name !== 'handoff') ? { ...m, content: 'One moment, and meanwhile…' } : m,
      ),
    };
    writeFileSync(file, source.map((r) => `${JSON.stringify(r === target ? broken : r)}\n`).join(''));

    const { lines: all } = await exported([copy], []);
    const flagged = all.find((l) => l.metadata.key === target.key);
    expect(flagged?.metadata.violations.count).toBeGreaterThan(0);
    expect(flagged?.metadata.violations.rules).toContain('several_actions_in_one_turn');

    const { summary, lines: kept } = await exported([copy], ['no-violation']);
    const clean = all.filter((l) => l.metadata.violations.count === 0);
    expect(kept.map((l) => l.metadata.key)).toEqual(clean.map((l) => l.metadata.key));
    expect(kept.map((l) => l.metadata.key)).not.toContain(target.key);
    expect(summary.droppedBy['no-violation']).toBe(all.length - clean.length);
  });

  it('keeps a dialogue only when every filter holds, and counts the drops per filter', async () => {
    const dirs = [rule, always];
    const { summary, lines: kept } = await exported(dirs, [...SFT_FILTERS]);
    const alone = await Promise.all(SFT_FILTERS.map((f) => exported(dirs, [f])));
    const keys = (ls: SftLine[]) => new Set(ls.map((l) => `${l.metadata.agent}:${l.metadata.key}`));
    const both = [...keys(alone[0]?.lines ?? [])].filter((k) => alone.every((a) => keys(a.lines).has(k)));
    expect([...keys(kept)].sort()).toEqual(both.sort());
    SFT_FILTERS.forEach((f, i) => expect(summary.droppedBy[f]).toBe(alone[i]?.summary.droppedBy[f]));
    expect(kept.every((l) => l.metadata.success === true && l.metadata.violations.count === 0)).toBe(true);
  });

  it('rejects an unknown filter, naming the valid ones', () => {
    expect(parseSftFilters('')).toEqual([]);
    expect(parseSftFilters(' correct-handoff,success ,success')).toEqual(['success', 'correct-handoff']);
    expect(() => parseSftFilters('success,succes')).toThrow(
      /unknown filter succes; the filters are success, no-violation, correct-handoff/,
    );
  });

  it('runs from the command line: counts on stderr, the same file as the function writes', async () => {
    const file = join(root, 'cli', 'sft.jsonl');
    const run = baton(['export', 'sft', rule, always, '--filter', 'success,correct-handoff', '--out', file], root);
    expect(run.status, run.stderr).toBe(0);
    const { summary } = await exported([rule, always], ['success', 'correct-handoff']);
    expect(run.stderr).toContain(`read ${summary.read} dialogues from 2 runs`);
    expect(run.stderr).toMatch(new RegExp(`dropped by success +${summary.droppedBy.success}\\n`));
    expect(run.stderr).toMatch(new RegExp(`dropped by correct-handoff +${summary.droppedBy['correct-handoff']}\\n`));
    expect(run.stderr).not.toContain('dropped by no-violation');
    expect(run.stderr).toContain(`kept ${summary.kept}, dropped ${summary.read - summary.kept}`);
    // The lengths to set max_length by, and one that keeps every dialogue.
    const t = summary.tokens!;
    expect(t.p50).toBeLessThanOrEqual(t.p95);
    expect(t.p95).toBeLessThanOrEqual(t.max);
    expect(t.suggestedMaxLength).toBeGreaterThanOrEqual(t.max);
    expect(t.max).toBeGreaterThan(1024);
    expect(run.stderr).toContain(`use max_length ${t.suggestedMaxLength} or more`);
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(summary.path, 'utf8'));

    const bad = join(root, 'cli', 'bad.jsonl');
    const refused = baton(['export', 'sft', rule, '--filter', 'success,no-violations', '--out', bad], root);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/--filter: unknown filter no-violations; the filters are success, no-violation, correct-handoff/);
    expect(existsSync(bad)).toBe(false);
  });
});
