/**
 * What the row schemas of `dataset-schema.ts` say, read out of them: the field list the dataset
 * card prints (every field, nested ones by path: `messages[].tool_calls[].name`) and the
 * `dataset_info.features` Hugging Face `datasets` types the columns with. Both come from the same
 * schema that every row is parsed with, so the card cannot name a field the files lack, nor miss
 * one they have.
 */
import type { z } from 'zod';

/** One field as the card lists it. */
export interface FieldDoc {
  /** `label.due_turn`, `messages[].tool_calls[].name`. */
  path: string;
  /** `string`, `int64`, `float64`, `bool`, `struct`, `list<string>`, `list<struct>`. */
  type: string;
  nullable: boolean;
  description: string;
}

/** A feature as `datasets` reads it from the card's YAML (`Features._from_yaml_list`). */
export type YamlFeature =
  { name: string; dtype: string } | { name: string; list: string | YamlFeature[] } | { name: string; struct: YamlFeature[] };

type Schema = z.ZodType;

interface Unwrapped {
  schema: Schema;
  nullable: boolean;
  description: string | undefined;
}

/** The schema under `.nullable()`, and the description on either. */
function unwrap(schema: Schema): Unwrapped {
  const def = schema.def as { type: string; innerType?: Schema };
  if (def.type === 'nullable' && def.innerType) {
    const inner = unwrap(def.innerType);
    return { ...inner, nullable: true, description: schema.description ?? inner.description };
  }
  return { schema, nullable: false, description: schema.description };
}

const kindOf = (schema: Schema) => (schema.def as { type: string }).type;

function scalarType(schema: Schema, path: string): string {
  const def = schema.def as { type: string; format?: string };
  if (def.type === 'string' || def.type === 'enum') return 'string';
  if (def.type === 'boolean') return 'bool';
  if (def.type === 'number') return def.format === 'safeint' || def.format === 'int32' ? 'int64' : 'float64';
  throw new Error(`dataset schema: ${path} has a type (${def.type}) a dataset column cannot hold`);
}

const shapeOf = (schema: Schema) => (schema as z.ZodObject).shape as Record<string, Schema>;
const elementOf = (schema: Schema) => (schema as z.ZodArray<Schema>).element;

/** Every field of an object schema, nested ones after their parent, in schema order. */
export function fieldDocs(object: Schema, prefix = ''): FieldDoc[] {
  const docs: FieldDoc[] = [];
  for (const [name, field] of Object.entries(shapeOf(object))) {
    const path = `${prefix}${name}`;
    const { schema, nullable, description } = unwrap(field);
    if (description === undefined) throw new Error(`dataset schema: ${path} has no description`);
    const kind = kindOf(schema);
    if (kind === 'object') {
      docs.push({ path, type: 'struct', nullable, description }, ...fieldDocs(schema, `${path}.`));
    } else if (kind === 'array') {
      const element = unwrap(elementOf(schema));
      if (kindOf(element.schema) === 'object') {
        docs.push({ path, type: 'list<struct>', nullable, description }, ...fieldDocs(element.schema, `${path}[].`));
      } else {
        docs.push({ path, type: `list<${scalarType(element.schema, path)}>`, nullable, description });
      }
    } else {
      docs.push({ path, type: scalarType(schema, path), nullable, description });
    }
  }
  return docs;
}

/** The `features` of an object schema, as the card's YAML header declares them. */
export function yamlFeatures(object: Schema, prefix = ''): YamlFeature[] {
  return Object.entries(shapeOf(object)).map(([name, field]): YamlFeature => {
    const path = `${prefix}${name}`;
    const { schema } = unwrap(field);
    const kind = kindOf(schema);
    if (kind === 'object') return { name, struct: yamlFeatures(schema, `${path}.`) };
    if (kind === 'array') {
      const element = unwrap(elementOf(schema)).schema;
      return { name, list: kindOf(element) === 'object' ? yamlFeatures(element, `${path}[].`) : scalarType(element, path) };
    }
    return { name, dtype: scalarType(schema, path) };
  });
}

/**
 * The field paths a JSON row holds: objects by key, arrays as `[]`, leaves and containers alike
 * (a JSON-text column is one leaf). What the card's coverage is checked against.
 */
export function rowPaths(value: unknown, at = '', into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) rowPaths(item, `${at}[]`, into);
    return into;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const path = at === '' ? key : `${at}.${key}`;
      into.add(path);
      rowPaths(item, path, into);
    }
  }
  return into;
}
