import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DomainTool } from '../src/domains/domain-tool.js';
import { AIRLINE_TOOLS } from '../src/domains/tau2/airline/index.js';
import { AIRLINE_TOOL_SCHEMAS } from '../src/domains/tau2/airline/schemas.js';
import { RETAIL_TOOLS } from '../src/domains/tau2/retail/index.js';
import { RETAIL_TOOL_SCHEMAS } from '../src/domains/tau2/retail/schemas.js';
import { Tau2TaskSchema } from '../src/domains/tau2/tau2-tasks.js';
import { tau2DirForTests } from './support/tau2-dir.js';

type JsonSchema = {
  type?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
};

const DOMAINS = [
  { domain: 'airline', tools: AIRLINE_TOOLS as ReadonlyMap<string, DomainTool<unknown>>, schemas: AIRLINE_TOOL_SCHEMAS, count: 14 },
  { domain: 'retail', tools: RETAIL_TOOLS as ReadonlyMap<string, DomainTool<unknown>>, schemas: RETAIL_TOOL_SCHEMAS, count: 16 },
] as const;

const dir = tau2DirForTests();

/** The gold actions of a domain's task file, with the task id for messages. */
function goldActions(domain: string, file: string): { task: string; name: string; arguments: Record<string, unknown> }[] {
  const tasks = z.array(Tau2TaskSchema).parse(JSON.parse(readFileSync(join(dir, domain, file), 'utf8')));
  return tasks.flatMap((task) =>
    (task.evaluation_criteria.actions ?? []).map((a) => ({ task: task.id, name: a.name, arguments: a.arguments })),
  );
}

/** Every property below `schema` (nested objects and array items included) that has no description. */
function undescribed(schema: JsonSchema, path: string): string[] {
  const missing: string[] = [];
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const where = `${path}.${key}`;
    if (typeof property.description !== 'string' || property.description.trim() === '') missing.push(where);
    missing.push(...undescribed(property, where));
    if (property.items) missing.push(...undescribed(property.items, `${where}[]`));
  }
  return missing;
}

const toJson = (schema: z.ZodObject): JsonSchema => z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;

describe.each(DOMAINS)('tau2 $domain tool argument schemas', ({ domain, tools, schemas, count }) => {
  it(`has exactly one schema per tool (${count} tools)`, () => {
    expect(tools.size).toBe(count);
    expect(Object.keys(schemas).sort()).toEqual([...tools.keys()].sort());
  });

  it.each([...tools.values()].map((tool) => [tool.name, tool] as const))('%s: keys are params in order', (name, tool) => {
    const schema = schemas[name];
    expect(schema).toBeDefined();
    expect(Object.keys(schema!.shape)).toEqual([...tool.params]);
    const json = toJson(schema!);
    expect(json.type).toBe('object');
    expect(Object.keys(json.properties ?? {})).toEqual([...tool.params]);
  });

  it.each([...tools.values()].map((tool) => [tool.name, tool] as const))('%s: required is params minus optional', (name, tool) => {
    const json = toJson(schemas[name]!);
    const optional = tool.optional ?? [];
    expect(json.required ?? []).toEqual(tool.params.filter((p) => !optional.includes(p)));
    // The zod side agrees: an argument object without the optional ones is still accepted by the shape.
    for (const param of tool.params) expect(schemas[name]!.shape[param]!.safeParse(undefined).success).toBe(optional.includes(param));
  });

  it.each([...tools.values()].map((tool) => [tool.name] as const))('%s: every property is described; the tool itself is not', (name) => {
    const json = toJson(schemas[name]!);
    expect(undescribed(json, name)).toEqual([]);
    expect(json.description).toBeUndefined();
  });

  it.each(['tasks.json', join('release-37199f3', 'tasks.json')])('every gold action of %s parses with its tool schema', (file) => {
    const actions = goldActions(domain, file);
    expect(actions.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const action of actions) {
      const schema = schemas[action.name];
      if (!schema) {
        failures.push(`task ${action.task}: no schema for ${action.name}`);
        continue;
      }
      const result = schema.strict().safeParse(action.arguments);
      if (!result.success) failures.push(`task ${action.task} ${action.name}: ${z.prettifyError(result.error)}`);
    }
    expect(failures).toEqual([]);
  });
});

describe('tau2 tool argument schemas reject wrong types', () => {
  it('airline book_reservation: enums, integer amounts and nested fields are checked', () => {
    const schema = AIRLINE_TOOL_SCHEMAS['book_reservation']!;
    const valid = {
      user_id: 'mia_li_3668',
      origin: 'JFK',
      destination: 'SEA',
      flight_type: 'one_way',
      cabin: 'economy',
      flights: [{ flight_number: 'HAT069', date: '2024-05-20' }],
      passengers: [{ first_name: 'Mia', last_name: 'Li', dob: '1990-04-05' }],
      payment_methods: [{ payment_id: 'credit_card_4421486', amount: 200 }],
      total_baggages: 1,
      nonfree_baggages: 0,
      insurance: 'no',
    };
    expect(schema.safeParse(valid).success).toBe(true);
    expect(schema.safeParse({ ...valid, cabin: 'first' }).success).toBe(false);
    expect(schema.safeParse({ ...valid, flight_type: 'multi_city' }).success).toBe(false);
    expect(schema.safeParse({ ...valid, insurance: true }).success).toBe(false);
    expect(schema.safeParse({ ...valid, total_baggages: 1.5 }).success).toBe(false);
    expect(schema.safeParse({ ...valid, payment_methods: [{ payment_id: 'x', amount: 10.5 }] }).success).toBe(false);
    expect(schema.safeParse({ ...valid, passengers: [{ first_name: 'Mia', last_name: 'Li' }] }).success).toBe(false);
    const json = toJson(schema);
    expect(json.properties?.['cabin']).toMatchObject({ enum: ['business', 'economy', 'basic_economy'] });
    expect(json.properties?.['payment_methods']?.items?.properties?.['amount']).toMatchObject({ type: 'integer' });
  });

  it('retail list arguments are lists of strings', () => {
    const schema = RETAIL_TOOL_SCHEMAS['return_delivered_order_items']!;
    expect(schema.safeParse({ order_id: '#W2611340', item_ids: ['1'], payment_method_id: 'paypal_5727330' }).success).toBe(true);
    expect(schema.safeParse({ order_id: '#W2611340', item_ids: '1', payment_method_id: 'paypal_5727330' }).success).toBe(false);
    expect(schema.safeParse({ order_id: '#W2611340', item_ids: [1], payment_method_id: 'paypal_5727330' }).success).toBe(false);
  });
});
