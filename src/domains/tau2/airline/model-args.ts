import { ToolError } from '../../domain-tool.js';
import { buildModel, type FieldKind, isDict, pyTypeName, pythonItems, validateModel, type ValidationIssue } from './python-semantics.js';

/**
 * List arguments the way upstream's tools take them: `if all(isinstance(x, dict) for x in xs):
 * xs = [Model(**x) for x in xs]`. A list that is not all dicts is kept raw, and fails later where
 * upstream fails (an attribute access or a model built from it).
 */
export interface ListArg {
  items: unknown[];
  validated: boolean;
  /** The argument as passed. */
  source: unknown;
}

/** Validates a list argument into models when every item is a dict (else keeps it raw). */
export function listArg(value: unknown, model: string, fields: ReadonlyArray<readonly [string, FieldKind]>): ListArg {
  const items = pythonItems(value);
  if (!items.every(isDict)) return { items, validated: false, source: value };
  return { items: items.map((item) => validateModel(model, fields, item as Record<string, unknown>)), validated: true, source: value };
}

/** Python's `item.<attr>` on a raw (non-model) item: `'str' object has no attribute 'flight_number'`. */
export function attribute(arg: ListArg, index: number, attr: string): unknown {
  const item = arg.items[index];
  if (!arg.validated) throw new ToolError(`'${pyTypeName(item)}' object has no attribute '${attr}'`);
  return (item as Record<string, unknown>)[attr];
}

/**
 * A list field of a model being built from a list argument: models pass, raw dicts are validated,
 * anything else is a `model_type` issue (pydantic: "Input should be a valid dictionary or
 * instance of <Model>").
 */
export function modelListField(
  field: string,
  arg: ListArg,
  model: string,
  fields: ReadonlyArray<readonly [string, FieldKind]>,
  issues: ValidationIssue[],
): unknown[] {
  if (arg.validated) return arg.items.map((item) => ({ ...(item as Record<string, unknown>) }));
  if (!Array.isArray(arg.source)) {
    issues.push({ loc: field, msg: 'Input should be a valid list', type: 'list_type', input: arg.source });
    return arg.items;
  }
  return arg.items.map((item, i) => {
    if (isDict(item)) return buildModel(fields, item, issues, `${field}.${i}.`);
    issues.push({
      loc: `${field}.${i}`,
      msg: `Input should be a valid dictionary or instance of ${model}`,
      type: 'model_type',
      input: item,
    });
    return item;
  });
}
