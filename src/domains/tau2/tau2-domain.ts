/**
 * tau2-bench's airline and retail as Baton domains: the data loaded (never shipped) and checked
 * against the manifest, the database parsed and frozen once, tools at byte parity, episodes with
 * copy-on-write databases, and the tasks of one task version.
 */
import { TAU2_HUMAN_QUEUE_ID, tau2DeciderPolicy } from '../decider-policies.js';
import type { Domain, DomainTask, DomainToolInfo } from '../domain.js';
import { criteriaOf } from '../domain.js';
import type { DomainTool } from '../domain-tool.js';
import { createEpisode, freezeDb, type Toolset } from '../episode.js';
import { AIRLINE_TOOLSET, type AirlineDb } from './airline/index.js';
import { AIRLINE_TOOL_SCHEMAS } from './airline/schemas.js';
import { createCanonicalHasher, floatPaths, withModelDefaults, type Tau2Domain } from './canonical-db.js';
import { loadRetailDb, retailToolset, type RetailDb } from './retail/index.js';
import { RETAIL_TOOL_SCHEMAS } from './retail/schemas.js';
import type { Tau2Data } from './tau2-data.js';
import { loadTau2Tasks, type Tau2Task, type Tau2TaskVersion } from './tau2-tasks.js';

export const TAU2_TRANSFER_TOOL = 'transfer_to_human_agents';

/** The human queue tau2-bench's transfer goes to (upstream has one, unnamed). */
const TAU2_QUEUE = { id: TAU2_HUMAN_QUEUE_ID, description: 'Human agents (tau2-bench has a single, unnamed team).', skills: [] };

function toolInfos<Db>(toolset: Toolset<Db>, schemas: Readonly<Record<string, DomainToolInfo['schema']>>): DomainToolInfo[] {
  return [...toolset.tools.values()].map((tool: DomainTool<Db>) => {
    const schema = schemas[tool.name];
    if (!schema) throw new Error(`no argument schema for tool ${tool.name}`);
    return { name: tool.name, kind: tool.kind, description: tool.description, schema };
  });
}

/** A tau2-bench task in the evaluator's terms; its hand-off label comes from its gold actions. */
export function domainTaskOf(task: Tau2Task): DomainTask {
  // No airline or retail task has one; a task that did would be scored against the wrong start.
  if (task.record.initial_state != null) throw new Error(`${task.domain} task ${task.id}: initial_state is not supported`);
  const criteria = criteriaOf(task.record.evaluation_criteria);
  const transfer = criteria.actions?.find((a) => a.name === TAU2_TRANSFER_TOOL);
  return {
    domain: task.domain,
    id: task.id,
    version: task.version,
    split: task.split,
    ...criteria,
    handoff: { expected: transfer !== undefined, queue: transfer ? TAU2_QUEUE.id : null, reason: null, source: 'gold_actions' },
    userScenario: {
      persona: task.record.user_scenario.persona ?? null,
      instructions: task.record.user_scenario.instructions,
    },
  };
}

function buildDomain<Db extends object>(
  name: Tau2Domain,
  data: Tau2Data,
  version: Tau2TaskVersion,
  db: Db,
  toolset: Toolset<Db>,
  schemas: Readonly<Record<string, DomainToolInfo['schema']>>,
): Domain<Db> {
  const initialDb = freezeDb(db);
  const hash = createCanonicalHasher(floatPaths(name), initialDb as Record<string, unknown>) as (db: Db) => string;
  const tools = toolInfos(toolset, schemas);
  return {
    name,
    version,
    source: `tau2-bench ${data.commit}`,
    // The release and the current commit have the same policy (TAU2.md §1).
    policy: data.read(`${name}/policy.md`),
    tools,
    transferTool: TAU2_TRANSFER_TOOL,
    queues: [TAU2_QUEUE],
    rules: [],
    // The policies authenticate by a look-up: airline by the user id (get_user_details), retail by e-mail or name and zip.
    authentication: {
      mode: 'lookup',
      identityTools: name === 'airline' ? ['get_user_details'] : ['find_user_id_by_email', 'find_user_id_by_name_zip'],
    },
    // One team takes every hand-off; tau2-bench's policies state no amount limit.
    deciderPolicy: tau2DeciderPolicy(toolset),
    initialDb,
    newEpisode: () => createEpisode(initialDb, toolset, hash),
    isWrite: (tool) => toolset.tools.get(tool)?.kind === 'write',
    tasks: loadTau2Tasks(data, name, { version }).map(domainTaskOf),
  };
}

/** Loads a tau2-bench domain in one task version (`current` by default). */
export function loadTau2Domain(data: Tau2Data, name: 'airline', options?: { version?: Tau2TaskVersion }): Domain<AirlineDb>;
export function loadTau2Domain(data: Tau2Data, name: 'retail', options?: { version?: Tau2TaskVersion }): Domain<RetailDb>;
export function loadTau2Domain(data: Tau2Data, name: Tau2Domain, options?: { version?: Tau2TaskVersion }): Domain;
export function loadTau2Domain(data: Tau2Data, name: Tau2Domain, options: { version?: Tau2TaskVersion } = {}): Domain {
  const version = options.version ?? 'current';
  if (name === 'airline') {
    const db = withModelDefaults('airline', JSON.parse(data.read('airline/db.json')) as Record<string, unknown>) as unknown as AirlineDb;
    return buildDomain('airline', data, version, db, AIRLINE_TOOLSET, AIRLINE_TOOL_SCHEMAS) as Domain;
  }
  return buildDomain(
    'retail',
    data,
    version,
    loadRetailDb(data.read('retail/db.json')),
    retailToolset(version),
    RETAIL_TOOL_SCHEMAS,
  ) as Domain;
}
