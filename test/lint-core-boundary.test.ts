import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The lint rule that keeps core/ pure, checked on code it must refuse and code it must allow. */
describe('core/ boundary lint rule', () => {
  const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });
  const lint = async (code: string, file: string) => {
    const [result] = await eslint.lintText(code, { filePath: file });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  };

  it.each([
    ["import { readFileSync } from 'node:fs';", /no node: modules/],
    ["import { readFileSync } from 'fs';", /no package but zod/],
    ["import { MemoryStore } from '../store/memory-store.js';", /nothing from outside core/],
    ["import pino from 'pino';", /no package but zod/],
  ])('refuses %s in src/core', async (line, why) => {
    const messages = await lint(`${line}\nexport const x = 1;\n`, 'src/core/probe.ts');
    expect(messages.join('\n')).toMatch(why);
  });

  it('allows zod and sibling imports in src/core, and anything elsewhere', async () => {
    expect(
      await lint(
        "import { z } from 'zod';\nimport { speakerOf } from './conversation.js';\nexport const x = [z, speakerOf];\n",
        'src/core/probe.ts',
      ),
    ).toEqual([]);
    expect(await lint("import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", 'src/store/probe.ts')).toEqual([]);
  });
});
