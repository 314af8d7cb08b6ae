/**
 * A YAML writer for the card's metadata header: mappings, sequences, strings, numbers, booleans
 * and null, block style. Strings are written double-quoted in JSON's escaping, which YAML 1.2
 * reads the same, so no value can turn into another type (`no`, `1e3`, `null`) or break the block.
 */
export type YamlValue = string | number | boolean | null | readonly YamlValue[] | { readonly [key: string]: YamlValue };

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

const scalar = (value: string | number | boolean | null): string => (typeof value === 'string' ? JSON.stringify(value) : String(value));
const key = (name: string) => (KEY.test(name) ? name : JSON.stringify(name));
const isScalar = (value: YamlValue): value is string | number | boolean | null => value === null || typeof value !== 'object';
const isEmpty = (value: YamlValue) => (Array.isArray(value) ? value.length === 0 : Object.keys(value as object).length === 0);

function lines(value: YamlValue, indent: string): string[] {
  if (isScalar(value)) return [`${indent}${scalar(value)}`];
  if (Array.isArray(value)) {
    return (value as readonly YamlValue[]).flatMap((item) => {
      if (isScalar(item) || isEmpty(item)) return [`${indent}- ${isScalar(item) ? scalar(item) : Array.isArray(item) ? '[]' : '{}'}`];
      // The first line of a nested block goes after the dash; the rest align under it.
      const [first, ...rest] = lines(item, `${indent}  `);
      return [`${indent}- ${(first ?? '').trimStart()}`, ...rest];
    });
  }
  return Object.entries(value as Record<string, YamlValue>).flatMap(([name, item]) => {
    if (isScalar(item)) return [`${indent}${key(name)}: ${scalar(item)}`];
    if (isEmpty(item)) return [`${indent}${key(name)}: ${Array.isArray(item) ? '[]' : '{}'}`];
    return [`${indent}${key(name)}:`, ...lines(item, Array.isArray(item) ? indent : `${indent}  `)];
  });
}

/** The YAML document of a value (a mapping at the top), newline-terminated. */
export function toYaml(value: YamlValue): string {
  return `${lines(value, '').join('\n')}\n`;
}
