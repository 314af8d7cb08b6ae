import { describe, expect, it } from 'vitest';
import { toYaml } from './yaml.js';

describe('toYaml', () => {
  it('writes block mappings and sequences, nested lists of mappings under their dash', () => {
    const yaml = toYaml({
      license: 'mit',
      configs: [{ config_name: 'episodes', data_files: [{ split: 'dev', path: 'episodes/dev.jsonl' }], default: true }],
      empty: [],
    });
    expect(yaml).toBe(
      [
        'license: "mit"',
        'configs:',
        '- config_name: "episodes"',
        '  data_files:',
        '  - split: "dev"',
        '    path: "episodes/dev.jsonl"',
        '  default: true',
        'empty: []',
        '',
      ].join('\n'),
    );
  });

  it('quotes every string, so no value reads as another type or breaks the block', () => {
    expect(toYaml({ a: 'no', b: '1e3', c: 'null', d: 'x: y # z', e: 'two\nlines "q"', n: 3, f: null })).toBe(
      ['a: "no"', 'b: "1e3"', 'c: "null"', 'd: "x: y # z"', 'e: "two\\nlines \\"q\\""', 'n: 3', 'f: null', ''].join('\n'),
    );
    expect(toYaml({ 'n<1K': ['n<1K'] })).toBe('"n<1K":\n- "n<1K"\n');
  });
});
